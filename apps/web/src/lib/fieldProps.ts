import { get, type FieldError, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';

/**
 * What a text field bound to a react-hook-form field takes: the field registered, and its error shown under it.
 * Spread into a TextField: `<TextField label="Email" {...fieldProps(form, 'email')} />`.
 */
export function fieldProps<T extends FieldValues>(form: UseFormReturn<T, any, any>, name: Path<T>) {
  const error: FieldError | undefined = get(form.formState.errors, name);
  return { ...form.register(name), error: !!error, helperText: error?.message };
}
