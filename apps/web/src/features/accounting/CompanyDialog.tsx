import { registerCompanyRequest } from '@obol/contract';
import { Box, DialogContentText, TextField } from '@mui/material';
import { useState } from 'react';
import { useFormCall } from '../../ui/notifications.tsx';
import { useRegisterCompany } from './api/companies.ts';
import { FormDialog } from '../../ui/FormDialog.tsx';

type Field = 'name' | 'email' | 'api_key';
const LABELS: Record<Field, string> = { name: 'Company name', email: 'Email', api_key: 'API key' };
const EMPTY: Record<Field, string> = { name: '', email: '', api_key: '' };

/**
 * Add Company Details: name, e-mail and the company's API key at the provider, checked with the contract's rules;
 * Create stays disabled while anything is invalid. The server checks the key at the provider and mails the consent
 * link to the company's e-mail.
 */
export function CompanyDialog({ onClose }: { onClose: () => void }) {
  const register = useRegisterCompany();
  const [v, setV] = useState(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const send = useFormCall(onClose, setServerErrors);
  const parsed = registerCompanyRequest.safeParse(v);
  const errors: Partial<Record<Field, string>> = {};
  if (!parsed.success) for (const i of parsed.error.issues) errors[i.path[0] as Field] ??= i.message;
  const busy = register.isPending;

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!parsed.success || busy) return;
    await send(() => register.mutateAsync(v));
  };

  const field = (k: Field, extra: { type?: string; help?: string; mono?: boolean } = {}) => {
    const error = (touched[k] ? errors[k] : undefined) ?? serverErrors[k];
    return (
      <TextField
        label={LABELS[k]}
        value={v[k]}
        type={extra.type}
        required
        fullWidth
        autoComplete="off"
        onChange={(e) => {
          setV({ ...v, [k]: e.target.value });
          setServerErrors({ ...serverErrors, [k]: undefined });
        }}
        onBlur={() => setTouched({ ...touched, [k]: true })}
        error={!!error}
        helperText={error ?? extra.help}
        slotProps={{
          htmlInput: {
            maxLength: k === 'api_key' ? 200 : k === 'email' ? 254 : 100,
            spellCheck: false,
            style: extra.mono ? { fontFamily: 'monospace' } : undefined,
          },
        }}
      />
    );
  };

  return (
    <FormDialog
      title="Add Company Details"
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submit="Add Company"
      disabled={!parsed.success}
    >
      <DialogContentText sx={{ mb: 2 }}>
        The API key is checked at the bank and kept encrypted. The company stays inactive until the account holder
        approves the account access from the link mailed to this e-mail.
      </DialogContentText>
      <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
        {field('name')}
        {field('email', { type: 'email' })}
        {field('api_key', { help: 'The company’s API key at the bank', mono: true })}
      </Box>
    </FormDialog>
  );
}
