import { Box, FormControlLabel, Grid, Stack, Switch, TextField } from '@mui/material';
import { euro } from '../../lib/format.ts';
import { CASHBACK_PERCENT, cashbackOf, type Buyer, type CheckoutErrors, type Field } from './checkout.ts';

/**
 * The buyer's details: names, date of birth, an optional Obol wallet for the cashback, and a card payment the
 * shop's staff take for the buyer (CardEye) with the staff member or till. Each field shows its message.
 */
export function BuyerFields({
  buyer,
  errors,
  cents,
  byStaff,
  onEdit,
  onByStaff,
}: {
  buyer: Buyer;
  errors: CheckoutErrors;
  /** the order's amount, for the cashback */
  cents: number;
  byStaff: boolean;
  onEdit: (name: Field, value: string) => void;
  onByStaff: (byStaff: boolean) => void;
}) {
  const field = (name: Field, label: string, extra: object = {}) => (
    <TextField
      label={label}
      fullWidth
      value={buyer[name]}
      onChange={(e) => onEdit(name, e.target.value)}
      error={!!errors[name]}
      helperText={errors[name] ?? ' '}
      {...extra}
    />
  );

  return (
    <>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>{field('first_name', 'First name', { autoComplete: 'given-name' })}</Grid>
        <Grid size={{ xs: 12, sm: 6 }}>{field('last_name', 'Last name', { autoComplete: 'family-name' })}</Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          {field('date_of_birth', 'Date of birth', {
            type: 'date',
            slotProps: { inputLabel: { shrink: true }, htmlInput: { max: new Date().toISOString().slice(0, 10) } },
          })}
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          {field('user_obol_id', `Obol wallet for ${CASHBACK_PERCENT}% cashback (optional)`, {
            slotProps: { htmlInput: { inputMode: 'numeric', autoComplete: 'off' } },
            helperText:
              errors.user_obol_id ??
              (buyer.user_obol_id.trim()
                ? `${euro(cashbackOf(cents))} back to this wallet once paid`
                : 'Your 9-digit Obol ID'),
          })}
        </Grid>
      </Grid>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <FormControlLabel
          control={<Switch checked={byStaff} onChange={(e) => onByStaff(e.target.checked)} />}
          label="Card payment taken by our staff (CardEye)"
          sx={{ minWidth: 280, mt: 1 }}
        />
        {byStaff ? (
          <Box sx={{ flex: 1 }}>{field('requested_by', 'Staff member or till', { autoComplete: 'off' })}</Box>
        ) : null}
      </Stack>
    </>
  );
}
