import { MERCHANT_SIDE_ROLES, MSG, email as emailSchema, type RoleName } from '@obol/contract';
import { MenuItem, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { allMerchantsQuery } from './api/allMerchants.ts';
import { allUserRolesQuery } from './api/allUserRoles.ts';
import { useInviteUser } from './api/inviteUser.ts';
import { FormDialog } from '../../ui/FormDialog.tsx';

type Field = 'name' | 'email' | 'rolename' | 'parent_id';
type Errors = Partial<Record<Field, string>>;

interface Props {
  open: boolean;
  onClose: () => void;
  /** staff choose the merchant a merchant-side user belongs to; a merchant's team joins the merchant */
  staff: boolean;
}

/** Invite user: name, e-mail and role (and for staff giving a merchant-side role, the merchant). */
export function InviteDialog({ open, onClose, staff }: Props) {
  const { notify } = useNotify();
  const invite = useInviteUser();
  const roles = useQuery({ ...allUserRolesQuery(), enabled: open });
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<RoleName | ''>('');
  const [merchant, setMerchant] = useState<number | ''>('');
  const [errors, setErrors] = useState<Errors>({});
  const needsMerchant = staff && role !== '' && MERCHANT_SIDE_ROLES.includes(role);
  const merchants = useQuery({ ...allMerchantsQuery(), enabled: open && needsMerchant });

  const close = () => {
    setName('');
    setEmail('');
    setRole('');
    setMerchant('');
    setErrors({});
    invite.reset();
    onClose();
  };

  const check = (): Errors => {
    const e: Errors = {};
    if (!name.trim()) e.name = MSG.required;
    if (!email.trim()) e.email = MSG.required;
    else if (!emailSchema.safeParse(email).success) e.email = MSG.emailInvalid;
    if (!role) e.rolename = MSG.required;
    if (needsMerchant && merchant === '') e.parent_id = MSG.required;
    return e;
  };

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const found = check();
    setErrors(found);
    if (Object.keys(found).length || !role) return;
    try {
      const r = await invite.mutateAsync({
        name: name.trim(),
        email: email.trim(),
        rolename: role,
        ...(needsMerchant && merchant !== '' ? { parent_id: merchant } : {}),
      });
      notify('success', r.message[0]);
      close();
    } catch (err) {
      if (err instanceof ApiError && err.body?.fields) {
        const f = err.body.fields;
        setErrors({ name: f.name?.[0], email: f.email?.[0], rolename: f.rolename?.[0], parent_id: f.parent_id?.[0] });
      }
      notify('error', errorMessage(err));
    }
  };

  return (
    <FormDialog
      open={open}
      title="Invite user"
      onClose={close}
      onSubmit={submit}
      busy={invite.isPending}
      submit="Invite"
      maxWidth="xs"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={!!errors.name}
          helperText={errors.name}
          required
          autoFocus
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <TextField
          label="Email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={!!errors.email}
          helperText={errors.email}
          required
          autoComplete="off"
        />
        <TextField
          select
          label="Role"
          value={role}
          onChange={(e) => {
            setRole(e.target.value as RoleName);
            setMerchant('');
          }}
          error={!!errors.rolename}
          helperText={errors.rolename}
          required
        >
          {(roles.data?.roles ?? []).map((r) => (
            <MenuItem key={r} value={r}>
              {r}
            </MenuItem>
          ))}
        </TextField>
        {needsMerchant ? (
          <TextField
            select
            label="Merchant"
            value={merchant}
            onChange={(e) => setMerchant(Number(e.target.value))}
            error={!!errors.parent_id}
            helperText={errors.parent_id ?? (merchants.data?.data.length === 0 ? "Merchant doesn't exist" : undefined)}
            required
          >
            {(merchants.data?.data ?? []).map((m) => (
              <MenuItem key={m.id} value={m.id}>
                {m.name}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
      </Stack>
    </FormDialog>
  );
}
