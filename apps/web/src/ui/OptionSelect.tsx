import { MenuItem, TextField } from '@mui/material';

/**
 * A dropdown of a list's header (status, sort): the chosen option's value, of the options' own type. An option
 * whose value is '' (All Batches, All Transactions) shows as chosen too, instead of a blank field.
 */
export function OptionSelect<T extends string | number>({
  label,
  value,
  options,
  onChange,
  minWidth = 180,
}: {
  label: string;
  value: T;
  options: readonly { label: string; value: T }[];
  onChange: (value: T) => void;
  minWidth?: number;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => {
        const chosen = options.find((o) => String(o.value) === String(e.target.value));
        if (chosen) onChange(chosen.value);
      }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth }}
    >
      {options.map((o) => (
        <MenuItem key={o.label} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
