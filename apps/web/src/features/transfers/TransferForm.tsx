import { zodResolver } from '@hookform/resolvers/zod';
import {
  amountCents,
  bicField,
  ibanField,
  MSG,
  PAYMENT_MSG,
  purposeField,
  requiredText,
  TRANSFER_ACCOUNT_TYPES,
  TRANSFER_MSG,
} from '@obol/contract';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  MenuItem,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../lib/api.ts';
import { euro } from '../../lib/format.ts';
import { CodeDialog } from '../../ui/CodeDialog.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { useReceipt } from '../../ui/receipts.tsx';
import { sendOtp, transferBalanceQuery, useAmountTransfer } from './api/transfers.ts';
import { fieldProps } from '../../lib/fieldProps.ts';

/** One account a transfer may be made from: payout, payin or clp (the Fee Account shows as the Payout type). */
export interface TransferSource {
  kind: string;
  account_id: string | null;
}

const form = z.object({
  beneficiary_name: requiredText(),
  iban: ibanField,
  bic: bicField,
  amount: z.string().max(50, PAYMENT_MSG.max50),
  message: purposeField,
});
type Form = z.input<typeof form>;
const EMPTY: Form = { beneficiary_name: '', iban: '', bic: '', amount: '', message: '' };
const FIELDS = ['beneficiary_name', 'iban', 'bic', 'amount', 'message'] as const;

/** After a transfer the balance is asked again about 2 s later (section 9), when the ledger has it. */
export const BALANCE_REFRESH_MS = 2000;

/**
 * The transfer form of Amount Transfer and Merchants Payout: the account type (Payout, Payin, CLP), the balance
 * card, the beneficiary, IBAN, BIC, amount in cents and purpose; 'Transfer Amount' checks everything, asks for the
 * code bound to this amount, IBAN and account, and the code dialog makes the transfer. A new holder (Merchants Payout)
 * mounts a new form (keyed by the holder), so it starts over.
 */
export function TransferForm({ sources, holderName }: { sources: readonly TransferSource[]; holderName: string }) {
  const { notify } = useNotify();
  const { showReceipt } = useReceipt();
  const client = useQueryClient();
  const [type, setType] = useState(0);
  const [dialog, setDialog] = useState(false);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  // the fields are uncontrolled: after a reset they are mounted anew, so their labels float back down
  const [round, setRound] = useState(0);
  const transfer = useAmountTransfer();
  const typeDef = TRANSFER_ACCOUNT_TYPES.find((t) => t.value === type);
  const source = typeDef
    ? (sources.find((s) => s.kind === typeDef.kind) ?? (type === 1 ? sources.find((s) => s.kind === 'fee') : undefined))
    : undefined;
  const accountId = source?.account_id ?? '';
  const balanceQ = useQuery(transferBalanceQuery(accountId));
  const balance = accountId ? (balanceQ.data?.balance ?? 0) : 0;
  const enabled = !!accountId && balance > 0;

  const f = useForm<Form>({ resolver: zodResolver(form), mode: 'onChange', defaultValues: EMPTY });

  const [rawAmount, iban] = useWatch({ control: f.control, name: ['amount', 'iban'] });
  const parsed = amountCents.safeParse(rawAmount.trim());
  const amount = parsed.success ? parsed.data : null;
  const amountError =
    rawAmount === ''
      ? f.formState.errors.amount?.message
      : !parsed.success
        ? parsed.error.issues[0].message
        : amount! > balance
          ? TRANSFER_MSG.amountExceeds
          : undefined;

  const bodyOf = (v: Form) => ({
    beneficiary_name: v.beneficiary_name,
    iban: v.iban,
    bic: v.bic,
    amount: amount!,
    account_id: accountId,
    message: v.message ?? '',
  });

  /** the server's word on a field goes under that field; anything else is a toast */
  const showError = (err: unknown) => {
    if (err instanceof ApiError) {
      const field = FIELDS.find((name) => err.fieldError(name));
      if (field) return f.setError(field, { message: err.fieldError(field) });
      if (err.fieldError('account_id')) return notify('error', err.fieldError('account_id')!);
      return notify('error', err.display);
    }
    notify('error', MSG.somethingWrong);
  };

  const askForCode = f.handleSubmit(async (v) => {
    if (!enabled) return notify('error', TRANSFER_MSG.selectAccount);
    if (amount === null) return f.setError('amount', { message: MSG.required });
    if (amount > balance) return;
    setBusy(true);
    try {
      const r = await sendOtp({ transaction_type: 'Amount Transfer', ...bodyOf(v) });
      notify('success', r.message[0]);
      setKey(crypto.randomUUID());
      setDialog(true);
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  });

  const submit = async (code: string): Promise<string | null> => {
    const kind = sources.find((s) => s.account_id === accountId)?.kind;
    try {
      const r = await transfer.mutateAsync({
        ...bodyOf(f.getValues()),
        account_used: kind === 'fee' ? undefined : (typeDef?.value as 1 | 2 | 3 | undefined),
        code,
        idempotency_key: key,
      });
      notify('success', r.message[0]);
      const t = r.transfer;
      showReceipt({
        title: r.approval_id ? 'Transfer waiting for approval' : 'Transfer submitted',
        amount: t.amount,
        from: `${t.merchant_name}, ${t.account_used} account ${t.account_id}`,
        to: `${t.beneficiary_name}, IBAN ${t.iban}`,
        reference: `Transfer ${t.id}`,
        status: t.status,
        link: { to: '/transfer-transactions', label: 'See it in Transfer Transactions' },
      });
      setDialog(false);
      // the account type and its balance stay chosen for the next transfer; the receipt says what this one did
      f.reset(EMPTY);
      setRound((n) => n + 1);
      // the ledger has the reserve already; the balance card follows about 2 s later, as the spec has it
      setTimeout(() => void client.invalidateQueries({ queryKey: ['transfer-balance'] }), BALANCE_REFRESH_MS);
      return null;
    } catch (err) {
      if (err instanceof ApiError && err.fieldError('code')) return err.fieldError('code')!;
      setDialog(false);
      showError(err);
      return null;
    }
  };

  const field = (name: (typeof FIELDS)[number], label: string, extra: object = {}) => (
    <TextField label={label} fullWidth disabled={!enabled} {...fieldProps(f, name)} {...extra} />
  );

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'stretch' } }}>
        <Paper sx={{ p: 2, flex: 1, minWidth: 0 }}>
          <TextField
            select
            label="Account type"
            fullWidth
            value={type}
            onChange={(e) => setType(Number(e.target.value))}
          >
            <MenuItem value={0}>Select Account</MenuItem>
            {TRANSFER_ACCOUNT_TYPES.map((t) => (
              <MenuItem key={t.value} value={t.value}>
                {t.label}
              </MenuItem>
            ))}
          </TextField>
          <Typography variant="body2" color="textSecondary" sx={{ mt: 1.5 }}>
            Paying from the accounts of <strong>{holderName}</strong>
          </Typography>
        </Paper>
        <Card variant="outlined" sx={{ flex: 1, minWidth: 0 }}>
          <CardContent>
            <Typography variant="body2" color="textSecondary">
              {typeDef ? `${source?.kind === 'fee' ? 'Fee Account' : typeDef.label} balance` : 'Available balance'}
            </Typography>
            {accountId && balanceQ.isPending ? (
              <Skeleton width={160} height={40} />
            ) : (
              <Typography component="p" variant="h5" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
                {typeDef && accountId ? euro(balance) : '–'}
              </Typography>
            )}
            {accountId ? (
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
                <Typography variant="caption" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
                  Account id {accountId}
                </Typography>
                <CopyButton text={accountId} label="Copy the account id" />
              </Stack>
            ) : (
              <Typography variant="caption" color="textSecondary">
                {typeDef ? TRANSFER_MSG.accountNotRegistered : 'Choose the account to transfer from'}
              </Typography>
            )}
          </CardContent>
        </Card>
      </Stack>
      <Paper component="form" noValidate onSubmit={askForCode} sx={{ p: 2 }} aria-label="Transfer form">
        {!enabled ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            {TRANSFER_MSG.selectAccount}
            {accountId && !balanceQ.isPending ? ': the account chosen has no balance to transfer.' : null}
          </Alert>
        ) : null}
        <Grid container spacing={2} key={round}>
          <Grid size={{ xs: 12, md: 6 }}>
            {field('beneficiary_name', 'Beneficiary name', { slotProps: { htmlInput: { maxLength: 50 } } })}
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            {field('iban', 'IBAN', {
              slotProps: { htmlInput: { maxLength: 50, autoCapitalize: 'characters', spellCheck: false } },
            })}
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            {field('bic', 'BIC', {
              slotProps: { htmlInput: { maxLength: 20, autoCapitalize: 'characters', spellCheck: false } },
            })}
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <TextField
              label="Amount (cents)"
              fullWidth
              disabled={!enabled}
              {...f.register('amount')}
              error={!!amountError}
              helperText={amountError ?? (amount ? `${euro(amount)}` : ' ')}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 50 } }}
            />
          </Grid>
          <Grid size={12}>
            {field('message', 'Purpose of payment (optional)', {
              multiline: true,
              minRows: 2,
              slotProps: { htmlInput: { maxLength: 255 } },
            })}
          </Grid>
        </Grid>
        <Box sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" disabled={!enabled || busy || !!amountError}>
            Transfer Amount
          </Button>
        </Box>
      </Paper>
      <CodeDialog
        open={dialog}
        text={`Approve a transfer of ${euro(amount ?? 0)} from account ${accountId} to ${iban}.`}
        onClose={() => setDialog(false)}
        onSubmit={submit}
      />
    </Stack>
  );
}
