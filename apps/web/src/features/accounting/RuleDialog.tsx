import { INTERVAL_TYPES, WEEKDAYS, type IntervalType } from '@obol/contract';
import { DialogContentText, Grid, InputAdornment, MenuItem, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useFormCall } from '../../ui/notifications.tsx';
import { useCreateRule } from './api/rules.ts';
import { CompanyAccountFields, TargetFields } from './CompanyFields.tsx';
import { EMPTY_RULE, ruleErrors, ruleRequest, type RuleErrors, type RuleKind, type RuleValues } from './ruleForm.ts';
import { FormDialog } from '../../ui/FormDialog.tsx';

const INTERVAL_LABELS: Record<IntervalType, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

const ABOUT: Record<RuleKind, string> = {
  percentage:
    "A percentage rule runs every day at the time you set (UTC) and moves that share of the account's balance at that moment, rounded down to the cent.",
  amount:
    'An amount rule moves a fixed amount at 00:00 UTC every day, every week on a weekday, or every month on a day.',
};

/**
 * Create Accounting Rule, of either kind: name, reference, company, account, transaction type and beneficiary
 * (its IBAN and BIC read-only), then a percentage and its daily time (UTC), or an amount and its interval. The
 * contract's rules check every field before anything is sent.
 */
export function RuleDialog({ kind, onClose }: { kind: RuleKind; onClose: () => void }) {
  const create = useCreateRule();
  const [v, setV] = useState<RuleValues>(EMPTY_RULE);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<RuleErrors>({});
  const send = useFormCall(onClose, setServerErrors);
  const found = ruleErrors(kind, v);
  const errors: RuleErrors = { ...(submitted ? found : {}), ...serverErrors };
  const busy = create.isPending;

  const set = (patch: Partial<RuleValues>) => {
    setV((old) => ({ ...old, ...patch }));
    setServerErrors((old) => {
      const next = { ...old };
      for (const k of Object.keys(patch) as (keyof RuleValues)[]) delete next[k];
      if ('weekday' in patch || 'month_day' in patch) delete next.interval_day;
      return next;
    });
  };

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    setSubmitted(true);
    if (Object.keys(found).length || busy) return;
    await send(() => create.mutateAsync(ruleRequest(kind, v)));
  };

  const text = (
    k: 'rule_name' | 'reference' | 'amount' | 'interval' | 'month_day',
    label: string,
    extra: { help?: string; max?: number; numeric?: boolean; end?: string; placeholder?: string; error?: string } = {},
  ) => {
    const error = extra.error ?? errors[k];
    return (
      <TextField
        label={label}
        value={v[k]}
        onChange={(e) => set({ [k]: e.target.value })}
        required
        fullWidth
        autoComplete="off"
        placeholder={extra.placeholder}
        error={!!error}
        helperText={error ?? extra.help}
        slotProps={{
          htmlInput: { maxLength: extra.max ?? 100, inputMode: extra.numeric ? 'numeric' : undefined },
          input: extra.end ? { endAdornment: <InputAdornment position="end">{extra.end}</InputAdornment> } : undefined,
        }}
      />
    );
  };

  return (
    <FormDialog
      title="Create Accounting Rule"
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submit="Create Rule"
      maxWidth="md"
    >
      <DialogContentText sx={{ mb: 2 }}>{ABOUT[kind]}</DialogContentText>
      <Grid container spacing={2} sx={{ pt: 1 }}>
        <Grid size={{ xs: 12, md: 6 }}>{text('rule_name', 'Rule name', { help: 'Up to 100 characters' })}</Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          {text('reference', 'Reference', { help: 'Letters, digits and spaces, up to 100 characters' })}
        </Grid>
        <CompanyAccountFields
          companyId={v.company_id}
          onCompany={(c) => set({ company_id: c, account_id: '', beneficiary_id: '' })}
          accountId={v.account_id}
          onAccount={(a) =>
            set(v.transfer_type === 'internal_transfer' ? { account_id: a, beneficiary_id: '' } : { account_id: a })
          }
          errors={errors}
        />
        <TargetFields
          companyId={v.company_id}
          sourceId={v.account_id}
          type={v.transfer_type}
          onType={(t) => set({ transfer_type: t, beneficiary_id: '' })}
          beneficiaryId={v.beneficiary_id}
          onBeneficiary={(b) => set({ beneficiary_id: b })}
          typeLabel="Transaction type"
          errors={errors}
        />
        {kind === 'percentage' ? (
          <>
            <Grid size={{ xs: 12, md: 6 }}>
              {text('amount', 'Percentage', { help: 'Above 0 up to 100, two decimals at most', max: 6, end: '%' })}
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              {text('interval', 'Time (UTC)', {
                help: 'Every day at this time, 24-hour HH:MM in UTC',
                max: 5,
                numeric: true,
                placeholder: 'HH:MM',
              })}
            </Grid>
          </>
        ) : (
          <>
            <Grid size={{ xs: 12, md: 4 }}>
              {text('amount', 'Amount (cents)', { help: 'A whole number of cents', max: 50, numeric: true })}
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <TextField
                select
                label="Interval"
                fullWidth
                value={v.interval_type}
                onChange={(e) => set({ interval_type: e.target.value as IntervalType })}
                helperText="Runs at 00:00 UTC"
              >
                {INTERVAL_TYPES.map((t) => (
                  <MenuItem key={t} value={t}>
                    {INTERVAL_LABELS[t]}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              {v.interval_type === 'weekly' ? (
                <TextField
                  select
                  label="Day of the week"
                  fullWidth
                  required
                  value={v.weekday}
                  onChange={(e) => set({ weekday: e.target.value })}
                  error={!!errors.interval_day}
                  helperText={errors.interval_day}
                >
                  {WEEKDAYS.map((d) => (
                    <MenuItem key={d} value={d}>
                      {d}
                    </MenuItem>
                  ))}
                </TextField>
              ) : v.interval_type === 'monthly' ? (
                text('month_day', 'Day of the month', {
                  help: 'From 1 to 31',
                  max: 2,
                  numeric: true,
                  error: errors.interval_day,
                })
              ) : null}
            </Grid>
            {v.interval_type === 'monthly' ? (
              <Grid size={12}>
                <Typography variant="body2" color="textSecondary">
                  A month without that day runs on its last day: the 31st runs on 30 April and on the last day of
                  February.
                </Typography>
              </Grid>
            ) : null}
          </>
        )}
      </Grid>
    </FormDialog>
  );
}
