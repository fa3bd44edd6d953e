import { MERCHANT_MSG, MSG, createMerchantRequest, updateMerchantDetailsRequest, type HolderRow } from '@obol/contract';
import { Box, InputAdornment, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { z } from 'zod';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { useCreateHolder, useUpdateMerchantDetails } from './api/merchants.ts';
import { ApprovalThreshold } from '../../ui/ApprovalThreshold.tsx';
import { useSession } from '../../lib/session.ts';
import { FormDialog } from '../../ui/FormDialog.tsx';

type Field =
  | 'name'
  | 'email'
  | 'payin_name'
  | 'obol_id'
  | 'mId'
  | 'fee'
  | 'brand_name'
  | 'registrationNumber'
  | 'street'
  | 'city'
  | 'zipCode';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

const EMPTY: Values = {
  name: '',
  email: '',
  payin_name: '',
  obol_id: '',
  mId: '',
  fee: '',
  brand_name: '',
  registrationNumber: '',
  street: '',
  city: '',
  zipCode: '',
};

const valuesOf = (h: HolderRow): Values => ({
  name: h.name,
  email: h.email,
  payin_name: h.payin_name ?? '',
  obol_id: h.obol_id ?? '',
  mId: h.mid ?? '',
  fee: h.fee === null ? '' : String(h.fee),
  brand_name: h.brand_name ?? '',
  registrationNumber: h.registration_number ?? '',
  street: h.street ?? '',
  city: h.city ?? '',
  zipCode: h.zip_code ?? '',
});

/** The first message of each field a schema refuses. */
export function issuesByField(error: z.ZodError | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of error?.issues ?? []) {
    const key = i.path.join('.');
    out[key] ??= i.message;
  }
  return out;
}

const REQUIRED: Field[] = ['name', 'email', 'payin_name', 'obol_id', 'mId', 'fee'];

const LABELS: Record<Field, string> = {
  name: 'Name',
  email: 'Email',
  payin_name: 'Descriptor',
  obol_id: 'Obol Id',
  mId: 'MID',
  fee: 'Fee',
  brand_name: 'Brand name',
  registrationNumber: 'Registration number',
  street: 'Street',
  city: 'City',
  zipCode: 'Zip code',
};

interface Props {
  /** the merchant or brand to edit; absent: Add New Merchant */
  holder?: HolderRow;
  onClose: () => void;
}

/**
 * Add New Merchant, or edit a merchant or brand. Creating asks for name, e-mail, descriptor, payout wallet, MID and
 * fee (the rest optional). Editing shows name, e-mail, wallet, MID and descriptor code read-only; the fee is a
 * merchant's only; Save is enabled once something changed and the form is valid.
 */
export function MerchantDialog({ holder, onClose }: Props) {
  const { notify } = useNotify();
  const create = useCreateHolder();
  const update = useUpdateMerchantDetails();
  const editing = !!holder;
  const isBrand = holder?.role === 'Brand';
  // the four-eyes threshold is the Admin's to set (issue 50)
  const isAdmin = useSession()?.user.role === 'Admin';
  const initial = holder ? valuesOf(holder) : EMPTY;
  const [v, setV] = useState<Values>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [touched, setTouched] = useState(false);
  const busy = create.isPending || update.isPending;

  // what is sent, exactly as typed (the server trims and converts); checked here with the same schema
  const optional = {
    brand_name: v.brand_name,
    registrationNumber: v.registrationNumber,
    street: v.street,
    city: v.city,
    zipCode: v.zipCode,
  };
  const createInput = {
    rolename: 'Merchant' as const,
    name: v.name,
    email: v.email,
    payin_name: v.payin_name,
    obol_id: v.obol_id,
    mId: v.mId,
    fee: v.fee,
    ...optional,
  };
  const updateInput = holder
    ? { id: holder.id, payin_name: v.payin_name, ...(isBrand ? {} : { fee: v.fee }), ...optional }
    : null;
  const payload = () =>
    updateInput ? updateMerchantDetailsRequest.safeParse(updateInput) : createMerchantRequest.safeParse(createInput);
  const parsed = payload();
  const changed = (Object.keys(v) as Field[]).some((k) => v[k].trim() !== initial[k].trim());
  const canSave = editing ? changed && parsed.success : true;

  const set = (k: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const next = { ...v, [k]: e.target.value };
    setV(next);
    // once a submit showed the errors, they follow the typing
    if (touched) setErrors((old) => ({ ...old, [k]: undefined }));
  };

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    setTouched(true);
    if (!parsed.success) {
      const found = issuesByField(parsed.error) as Errors;
      // a blank required field says so, whatever else its rule says about an empty text (the fee's range)
      for (const k of REQUIRED) if (found[k] && !v[k].trim()) found[k] = MSG.required;
      setErrors(found);
      return;
    }
    try {
      const r = updateInput ? await update.mutateAsync(updateInput) : await create.mutateAsync(createInput);
      notify('success', r.message[0] ?? (holder ? MERCHANT_MSG.updated : MERCHANT_MSG.created));
      if (r.message[1]) notify('warning', r.message[1]);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.body?.fields) {
        const f = err.body.fields;
        setErrors(Object.fromEntries(Object.entries(f).map(([k, m]) => [k, m[0]])) as Errors);
      }
      notify('error', errorMessage(err));
    }
  };

  const field = (k: Field, opts: { required?: boolean; readOnly?: boolean; help?: string; type?: string } = {}) => (
    <TextField
      key={k}
      label={LABELS[k]}
      value={v[k]}
      onChange={set(k)}
      required={opts.required && !opts.readOnly}
      error={!!errors[k]}
      helperText={errors[k] ?? opts.help}
      type={opts.type}
      autoComplete="off"
      slotProps={{
        input: {
          readOnly: opts.readOnly,
          ...(k === 'fee' ? { endAdornment: <InputAdornment position="end">%</InputAdornment> } : {}),
        },
        htmlInput: k === 'fee' ? { inputMode: 'decimal' } : undefined,
      }}
      variant={opts.readOnly ? 'filled' : 'outlined'}
    />
  );

  return (
    <FormDialog
      title={holder ? `Edit ${isBrand ? 'brand' : 'merchant'}: ${holder.name}` : 'Add New Merchant'}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submit={holder ? 'Save' : 'Create merchant'}
      disabled={!canSave}
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2, pt: 1 }}>
        {field('name', { required: true, readOnly: editing })}
        {field('email', { required: true, readOnly: editing, type: 'email' })}
        {field('payin_name', { required: true, help: 'Shown on card statements, up to 22 characters' })}
        {editing ? (
          <TextField
            label="Descriptor code"
            value={holder.descriptor_code}
            variant="filled"
            slotProps={{ input: { readOnly: true } }}
          />
        ) : null}
        {field('obol_id', { required: true, readOnly: editing, help: editing ? undefined : 'The payout wallet' })}
        {field('mId', { required: true, readOnly: editing })}
        {isBrand ? null : field('fee', { required: true, help: 'Above 0, at most 100' })}
        {field('brand_name')}
        {field('registrationNumber')}
        {field('street')}
        {field('city')}
        {field('zipCode')}
      </Box>
      {isBrand ? (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 2 }}>
          {MERCHANT_MSG.brandFee}.
        </Typography>
      ) : null}
      {holder && !isBrand && isAdmin ? <ApprovalThreshold holderType="merchant" holderId={holder.id} /> : null}
    </FormDialog>
  );
}
