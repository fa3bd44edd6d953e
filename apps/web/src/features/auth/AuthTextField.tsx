import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';
import { forwardRef, useId, type ChangeEventHandler, type FocusEventHandler } from 'react';

interface Props {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  error?: boolean;
  helperText?: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  onBlur?: FocusEventHandler<HTMLInputElement>;
}

/**
 * An outlined text field for the sign-in page, built from MUI's parts: it looks and reads like TextField, without
 * TextField's `select` mode, whose Select, Menu, Popover and Modal would otherwise load with the sign-in page (its
 * JavaScript budget, budget.e2e.ts). The ref is the input's, as react-hook-form's register wants.
 */
export const AuthTextField = forwardRef<HTMLInputElement, Props>(function AuthTextField(
  { label, error, helperText, ...input },
  ref,
) {
  const id = useId();
  const helpId = `${id}-help`;
  return (
    <FormControl variant="outlined" error={error}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        inputRef={ref}
        {...input}
        aria-describedby={helperText ? helpId : undefined}
        aria-invalid={error || undefined}
      />
      {helperText ? <FormHelperText id={helpId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
});
