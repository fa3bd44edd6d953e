import { MSG, newPassword } from '@obol/contract';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { List, ListItem, ListItemIcon, ListItemText, TextField } from '@mui/material';
import { useWatch, type Path, type UseFormReturn } from 'react-hook-form';
import { fieldProps } from '../lib/fieldProps.ts';

/** The password rules of the contract, in the order a user meets them. */
export const PASSWORD_RULES = [MSG.passwordMin, MSG.passwordAlphabet, MSG.passwordNumber, MSG.passwordSpecial] as const;

/** Which rules a password breaks, by the contract's own schema. */
export function brokenPasswordRules(password: string): Set<string> {
  const r = newPassword.safeParse(password);
  return new Set(r.success ? [] : r.error.issues.map((i) => i.message));
}

/** A live checklist of the password rules under a new-password field. */
export function PasswordRules({ password, id }: { password: string; id?: string }) {
  const broken = brokenPasswordRules(password);
  const rules: string[] = [...PASSWORD_RULES];
  if (broken.has(MSG.passwordCharset)) rules.push(MSG.passwordCharset);
  return (
    <List dense disablePadding id={id} aria-label="Password rules">
      {rules.map((rule) => {
        const ok = !!password && !broken.has(rule);
        return (
          <ListItem key={rule} disableGutters sx={{ py: 0 }} data-ok={ok}>
            <ListItemIcon sx={{ minWidth: 28 }}>
              {ok ? (
                <CheckCircleIcon fontSize="small" color="success" titleAccess="met" />
              ) : (
                <RadioButtonUncheckedIcon fontSize="small" color="disabled" titleAccess="not met" />
              )}
            </ListItemIcon>
            <ListItemText
              primary={rule}
              slotProps={{ primary: { variant: 'body2', color: ok ? 'success' : 'textSecondary' } }}
            />
          </ListItem>
        );
      })}
    </List>
  );
}

/**
 * A new password's fields in a react-hook-form form: the password, the live checklist of its rules under it, and its
 * confirmation.
 */
export function NewPasswordFields<T extends { password: string; password_confirmation: string }>({
  form,
  confirmLabel,
  rulesId,
}: {
  form: UseFormReturn<T, any, any>;
  confirmLabel: string;
  /** the checklist's id, for a field that names it */
  rulesId?: string;
}) {
  const password = useWatch({ control: form.control, name: 'password' as Path<T> }) as string | undefined;
  return (
    <>
      <TextField label="New password" type="password" {...fieldProps(form, 'password' as Path<T>)} />
      <PasswordRules password={password ?? ''} id={rulesId} />
      <TextField label={confirmLabel} type="password" {...fieldProps(form, 'password_confirmation' as Path<T>)} />
    </>
  );
}
