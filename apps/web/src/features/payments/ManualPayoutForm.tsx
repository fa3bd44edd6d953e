import { zodResolver } from '@hookform/resolvers/zod';
import { amountCents, feeCents, MSG, obolIdField, parseFeePercent, PAYMENT_MSG, requiredText } from '@obol/contract';
import { Alert, Button, Grid, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../lib/api.ts';
import { euro } from '../../lib/format.ts';
import { CodeDialog } from '../../ui/CodeDialog.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { useReceipt } from '../../ui/receipts.tsx';
import { useCreatePayout } from './api/createPayout.ts';
import { requestCode } from './api/requestCode.ts';
import type { Selection } from './types.ts';
import { fieldProps } from '../../lib/fieldProps.ts';

const form = z.object({
  beneficiary_name: requiredText(),
  brand: requiredText(),
  merchant_transaction_id: requiredText(),
  obol_id: obolIdField,
  reference: requiredText(),
  amount: z.string().max(50, PAYMENT_MSG.max50),
});
type Form = z.infer<typeof form>;

export function ManualPayoutForm({
  selection,
  brands,
  onPrevious,
}: {
  selection: Selection;
  brands: string[];
  onPrevious: () => void;
}) {
  const navigate = useNavigate();
  const { notify } = useNotify();
  const { showReceipt } = useReceipt();
  const [dialog, setDialog] = useState(false);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const createPayout = useCreatePayout();
  const f = useForm<Form>({
    resolver: zodResolver(form),
    mode: 'onChange',
    defaultValues: {
      beneficiary_name: '',
      brand: brands.length === 1 ? brands[0] : '',
      merchant_transaction_id: '',
      obol_id: '',
      reference: '',
      amount: '',
    },
  });
  const [rawAmount, brand, obolId] = useWatch({ control: f.control, name: ['amount', 'brand', 'obol_id'] });
  const balance = selection.balance ?? 0;
  const bps = parseFeePercent(String(selection.fee)) ?? 0;
  const parsed = amountCents.safeParse(rawAmount.trim());
  const amount = parsed.success ? parsed.data : null;
  const fee = amount ? feeCents(amount, bps) : 0;
  const total = amount ? amount + fee : 0;
  const amountError =
    rawAmount === ''
      ? undefined
      : !parsed.success
        ? parsed.error.issues[0].message
        : total > balance
          ? PAYMENT_MSG.amountExceeds
          : undefined;
  const canCreate = f.formState.isValid && amount !== null && total <= balance && !busy;

  const askForCode = f.handleSubmit(async (v) => {
    setBusy(true);
    try {
      const r = await requestCode({ transaction_type: 'Manual Payout', amount: amount!, obol_id: v.obol_id });
      notify('success', r.message[0]);
      setKey(crypto.randomUUID());
      setDialog(true);
    } catch (err) {
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
    } finally {
      setBusy(false);
    }
  });

  const create = async (code: string): Promise<string | null> => {
    const v = f.getValues();
    try {
      const r = await createPayout.mutateAsync({
        idempotency_key: key,
        account_reference: selection.account!.account_reference,
        behalf_of_id: selection.holder?.id,
        merchant_transaction_id: v.merchant_transaction_id,
        beneficiary_name: v.beneficiary_name,
        obol_id: v.obol_id,
        brand: v.brand,
        currency: 'EUR',
        reference: v.reference,
        amount: amount!,
        total_payable: total,
        available_balance: balance,
        code,
        transaction_type: 'Manual Payout',
      });
      notify('success', r.message[0]);
      const reference = selection.account!.account_reference;
      showReceipt({
        title: r.approval_id ? 'Payout waiting for approval' : 'Payout created',
        amount: r.payout.amount,
        fee: r.payout.fee,
        from: `${selection.holder?.name ?? reference}, account ${reference}`,
        to: `${v.beneficiary_name}, Obol id ${v.obol_id}`,
        reference: r.batch_id,
        status: r.payout.status,
        link: { to: `/recent-batches?q=${encodeURIComponent(r.batch_id)}`, label: 'See it in Recent Batches' },
      });
      setDialog(false);
      navigate('/recent-batches');
      return null;
    } catch (err) {
      if (!(err instanceof ApiError)) return MSG.somethingWrong;
      if (err.status === 400 && err.fieldError('obol_id')) {
        notify('error', PAYMENT_MSG.invalidObolId);
        setDialog(false);
        return null;
      }
      if (err.fieldError('code')) return err.fieldError('code')!;
      notify('error', err.display);
      setDialog(false);
      return null;
    }
  };

  const field = (name: keyof Form, label: string, extra: object = {}) => (
    <TextField
      label={label}
      fullWidth
      {...fieldProps(f, name)}
      slotProps={{ htmlInput: { maxLength: 50 } }}
      {...extra}
    />
  );

  return (
    <form onSubmit={askForCode} noValidate>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>{field('beneficiary_name', 'Beneficiary name')}</Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          {brands.length ? (
            <TextField
              select
              label="Brand"
              fullWidth
              value={brand}
              onChange={(e) => f.setValue('brand', e.target.value, { shouldValidate: true })}
              error={!!f.formState.errors.brand}
              helperText={f.formState.errors.brand?.message}
            >
              {brands.map((b) => (
                <MenuItem key={b} value={b}>
                  {b}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            field('brand', 'Brand')
          )}
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>{field('merchant_transaction_id', 'Merchant transaction id')}</Grid>
        <Grid size={{ xs: 12, md: 6 }}>{field('obol_id', 'Obol ID')}</Grid>
        <Grid size={{ xs: 12, md: 6 }}>{field('reference', 'Reference')}</Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <TextField label="Currency" value="EUR" fullWidth slotProps={{ input: { readOnly: true } }} />
        </Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <TextField
            label="Amount (cents)"
            fullWidth
            {...f.register('amount')}
            error={!!amountError}
            helperText={amountError}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 50 } }}
          />
        </Grid>
      </Grid>
      <Alert severity="info" sx={{ mt: 2 }}>
        <Stack direction="row" spacing={3} sx={{ flexWrap: 'wrap' }}>
          <Typography variant="body2">Amount: {euro(amount ?? 0)}</Typography>
          <Tooltip title="Fee is getting rounded off">
            <Typography variant="body2">
              Fee ({selection.fee}%): {euro(fee)}
            </Typography>
          </Tooltip>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            Total payable: {euro(total)}
          </Typography>
        </Stack>
      </Alert>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button onClick={onPrevious}>Previous</Button>
        <Button type="submit" variant="contained" disabled={!canCreate}>
          Create Payout
        </Button>
      </Stack>
      <CodeDialog
        open={dialog}
        text={`Approve a payout of ${euro(amount ?? 0)} (total ${euro(total)}) to wallet ${obolId}.`}
        onClose={() => setDialog(false)}
        onSubmit={create}
      />
    </form>
  );
}
