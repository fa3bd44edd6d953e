import { Box, LinearProgress, Step, StepLabel, Stepper, Typography, useMediaQuery, useTheme } from '@mui/material';

export const STEPS = ['Payment type', 'Merchant or brand', 'Account', 'Payout'];

/** The four steps of a payment: a horizontal stepper, or on a phone one line ("Step 2 of 4") and a bar. */
export function PaymentsStepper({ step }: { step: number }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  if (phone)
    return (
      <Box sx={{ mb: 2 }} aria-label="Progress of the payment" role="group">
        <Typography variant="body2" color="textSecondary">
          Step {step + 1} of {STEPS.length}
        </Typography>
        <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600, mb: 1 }}>
          {STEPS[step]}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={(100 * (step + 1)) / STEPS.length}
          aria-label={`Step ${step + 1} of ${STEPS.length}: ${STEPS[step]}`}
          sx={{ height: 4, borderRadius: 2 }}
        />
      </Box>
    );
  return (
    <Stepper activeStep={step} sx={{ mb: 3 }}>
      {STEPS.map((s) => (
        <Step key={s}>
          <StepLabel>{s}</StepLabel>
        </Step>
      ))}
    </Stepper>
  );
}
