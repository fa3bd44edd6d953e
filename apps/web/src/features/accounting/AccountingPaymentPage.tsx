import {
  ACCOUNTING_MSG,
  MSG,
  accountingAmount,
  accountingOtpRequest,
  type AccountingOtpRequest,
  type AccountingTransferType,
} from '@obol/contract';
import { Alert, Box, Button, Grid, Paper, Stack, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { CodeDialog } from '../../ui/CodeDialog.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { useReceipt } from '../../ui/receipts.tsx';
import { requestAccountingOtp, useAccountingTransfer } from './api/payments.ts';
import { AccountCard } from './AccountCard.tsx';
import { money, statusLabel } from './labels.tsx';
import { CompanyAccountFields, TargetFields, useBeneficiaries, useCompanyAccounts } from './CompanyFields.tsx';

type Field = keyof AccountingOtpRequest;
const referenceField = accountingOtpRequest.shape.reference;

/** The first message of a value a schema refuses; none for a value it takes. */
const issueOf = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

/**
 * 2D Payments: a transfer from a company's account, to one of its beneficiaries (External) or to another of its
 * accounts (Internal). 'Transfer Amount' checks the form, asks for the code bound to this transfer, and the code
 * dialog makes it, once per idempotency key; then the form, the company and the beneficiary start over.
 */
export function AccountingPaymentPage() {
  const { notify } = useNotify();
  const { showReceipt } = useReceipt();
  const client = useQueryClient();
  const transfer = useAccountingTransfer();
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [accountId, setAccountId] = useState('');
  const [type, setType] = useState<AccountingTransferType>('external_transfer');
  const [beneficiaryId, setBeneficiaryId] = useState('');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [bound, setBound] = useState<AccountingOtpRequest | null>(null);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const { accounts, loading } = useCompanyAccounts(companyId);
  const account = accounts.find((a) => a.id === accountId);
  const balance = account?.balance ?? 0;
  const enabled = !!account && balance > 0;
  const beneficiary = useBeneficiaries(companyId, type, accountId).find((b) => b.id === beneficiaryId);

  const parsedAmount = accountingAmount.safeParse(amount.trim());
  const errors: Partial<Record<Field, string>> = {
    amount:
      amount === ''
        ? submitted
          ? MSG.required
          : undefined
        : (issueOf(parsedAmount) ??
          (parsedAmount.success && parsedAmount.data > balance ? ACCOUNTING_MSG.amountExceeds : undefined)),
    reference: reference === '' ? (submitted ? MSG.required : undefined) : issueOf(referenceField.safeParse(reference)),
    beneficiary_id: submitted && !beneficiary ? MSG.required : undefined,
  };
  for (const [k, m] of Object.entries(serverErrors)) errors[k as Field] ??= m;

  const clearServer = (k: Field) => setServerErrors((old) => ({ ...old, [k]: undefined }));
  /** a required text field of the form, off without an account: its value, an edit that drops the server's word */
  const textField = (k: 'amount' | 'reference', value: string, set: (v: string) => void) => ({
    fullWidth: true,
    required: true,
    disabled: !enabled,
    value,
    onChange: (e: { target: { value: string } }) => {
      set(e.target.value);
      clearServer(k);
    },
    error: !!errors[k],
  });
  const chooseCompany = (id: number | null) => {
    setCompanyId(id);
    setAccountId('');
    setBeneficiaryId('');
  };
  const chooseAccount = (id: string) => {
    setAccountId(id);
    if (type === 'internal_transfer') setBeneficiaryId('');
  };
  const chooseType = (t: AccountingTransferType) => {
    setType(t);
    setBeneficiaryId('');
  };
  /** after a payment: the company, account, type and beneficiary stay for the next one; amount and reference empty */
  const reset = () => {
    setAmount('');
    setReference('');
    setSubmitted(false);
    setServerErrors({});
  };

  /** the server's word on a field goes under that field; anything else is a toast */
  const showError = (err: unknown) => {
    const fields = err instanceof ApiError ? err.body?.fields : undefined;
    const own = Object.entries(fields ?? {}).filter(([k]) => ['amount', 'reference', 'beneficiary_id'].includes(k));
    if (own.length) setServerErrors(Object.fromEntries(own.map(([k, m]) => [k, m[0]])));
    else notify('error', errorMessage(err));
  };

  const askForCode = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!enabled || companyId === null) return notify('error', ACCOUNTING_MSG.selectAccount);
    setSubmitted(true);
    if (!beneficiary || !parsedAmount.success || errors.amount || errors.reference) return;
    const body: AccountingOtpRequest = {
      company_id: companyId,
      account_id: accountId,
      beneficiary_id: beneficiaryId,
      amount: parsedAmount.data,
      reference: reference.trim(),
      transfer_type: type,
    };
    setBusy(true);
    try {
      const r = await requestAccountingOtp(body);
      notify('success', r.message[0]);
      setBound(body);
      // one key per transfer meant: a retry of this code's submit answers the same transfer
      setKey(crypto.randomUUID());
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };

  const submitCode = async (otp: string): Promise<string | null> => {
    if (!bound) return null;
    try {
      const r = await transfer.mutateAsync({ ...bound, otp, idempotency_key: key });
      notify('success', r.message[0]);
      const t = r.transaction;
      showReceipt({
        title: r.approval_id ? '2D payment waiting for approval' : '2D payment submitted',
        amount: t.amount,
        from: `${t.company_name}, account ${t.account_id}`,
        to: `${t.beneficiary_name}, IBAN ${t.iban}`,
        reference: `2D transaction ${t.id}`,
        status: statusLabel(t.status),
        link: { to: '/accounting-transactions', label: 'See it in 2D Transactions' },
      });
      setBound(null);
      reset();
      await Promise.all(
        ['company-accounts', 'company-beneficiaries'].map((k) => client.invalidateQueries({ queryKey: [k] })),
      );
      return null;
    } catch (err) {
      // a wrong or used code stays in the dialog (the approval codes answer it on `code`)
      const codeError = err instanceof ApiError ? (err.fieldError('otp') ?? err.fieldError('code')) : undefined;
      if (codeError) return codeError;
      setBound(null);
      showError(err);
      return null;
    }
  };

  return (
    <>
      <PageTitle>2D Payments</PageTitle>
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'stretch' } }}>
          <Paper sx={{ p: 2, flex: 1, minWidth: 0 }}>
            <Grid container spacing={2}>
              <CompanyAccountFields
                companyId={companyId}
                onCompany={chooseCompany}
                accountId={accountId}
                onAccount={chooseAccount}
                md={12}
              />
            </Grid>
          </Paper>
          <AccountCard account={account} loading={companyId !== null && loading && !account} />
        </Stack>
        <Paper component="form" noValidate onSubmit={askForCode} sx={{ p: 2 }} aria-label="Amount Transfer">
          {!enabled ? (
            <Alert severity="info" sx={{ mb: 2 }}>
              {account ? 'This account has no balance to transfer.' : ACCOUNTING_MSG.selectAccount}
            </Alert>
          ) : null}
          <Grid container spacing={2}>
            <TargetFields
              companyId={companyId}
              sourceId={accountId}
              type={type}
              onType={chooseType}
              beneficiaryId={beneficiaryId}
              onBeneficiary={(id) => {
                setBeneficiaryId(id);
                clearServer('beneficiary_id');
              }}
              disabled={!enabled}
              errors={errors}
            />
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField
                label="Amount (cents)"
                {...textField('amount', amount, setAmount)}
                helperText={
                  errors.amount ?? (parsedAmount.success ? money(parsedAmount.data, account?.currency ?? '') : ' ')
                }
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 50 } }}
              />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField
                label="Purpose of payment"
                {...textField('reference', reference, setReference)}
                helperText={errors.reference ?? 'Letters, digits and spaces, up to 100 characters'}
                slotProps={{ htmlInput: { maxLength: 100 } }}
              />
            </Grid>
          </Grid>
          <Box sx={{ mt: 2 }}>
            <Button type="submit" variant="contained" disabled={busy}>
              Transfer Amount
            </Button>
          </Box>
        </Paper>
      </Stack>
      <CodeDialog
        open={!!bound}
        text={
          bound
            ? `Approve a transfer of ${money(bound.amount as number, account?.currency ?? '')} from ${account?.name ?? bound.account_id} to ${beneficiary?.name ?? bound.beneficiary_id}.`
            : undefined
        }
        onClose={() => setBound(null)}
        onSubmit={submitCode}
      />
    </>
  );
}
