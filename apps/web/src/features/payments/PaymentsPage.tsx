import { MSG, PAYMENT_MSG } from '@obol/contract';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  CircularProgress,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { euro } from '../../lib/format.ts';
import { sessionStore, useSession } from '../../lib/session.ts';
import { useDebounced } from '../../lib/useDebounced.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { CheckerDialog } from '../../ui/CheckerDialog.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { accountBalance } from './api/accountBalance.ts';
import { FEE_ACCOUNT_HOLDER, merchantAccountsQuery } from './api/merchantAccounts.ts';
import { searchMerchantQuery } from './api/searchMerchant.ts';
import { batchProgressQuery } from './api/batchProgress.ts';
import { walletChecker } from './api/walletChecker.ts';
import { AccountStep } from './AccountStep.tsx';
import { ManualPayoutForm } from './ManualPayoutForm.tsx';
import { PaymentsStepper } from './PaymentsStepper.tsx';
import type { AccountChoice, Selection } from './types.ts';
import { UploadStep } from './UploadStep.tsx';

export function PaymentsPage() {
  const session = useSession();
  const { notify } = useNotify();
  const [step, setStep] = useState(0);
  const [checker, setChecker] = useState(false);
  const [sel, setSel] = useState<Selection>({ type: null, holder: null, account: null, balance: null, fee: 0 });
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search, 500);
  const perms = session?.permissions ?? [];
  const role = session?.user.role;
  const selfService = role === 'Merchant' || role === 'Brand' || !!session?.user.parent;
  const holders = useQuery({ ...searchMerchantQuery(debounced), enabled: step >= 1 });
  // a batch still being staged blocks a new payment until it is ready for review
  const progress = useQuery({
    ...batchProgressQuery(session?.batch?.batch_id ?? ''),
    enabled: session?.batch?.batch_status === 'Processing',
    refetchInterval: 2000,
    retry: false,
  });
  useEffect(() => {
    const b = sessionStore.get()?.batch;
    if (!b || b.batch_status !== 'Processing') return;
    if (progress.data?.status === 'Declined') sessionStore.setBatch(null);
    else if (progress.data && progress.data.status !== 'Processing')
      sessionStore.setBatch({ ...b, batch_status: progress.data.status });
    if (progress.error) sessionStore.setBatch(null);
  }, [progress.data, progress.error]);
  const accounts = useQuery({ ...merchantAccountsQuery(sel.holder), enabled: step === 2 && !!sel.holder });
  // the Admin may also pay from the Fee Account, on the chosen holder's behalf (spec: the Admin's choosers offer it)
  const feeAccount = useQuery({
    ...merchantAccountsQuery(role === 'Admin' ? FEE_ACCOUNT_HOLDER : null),
    enabled: step === 2 && role === 'Admin',
  });
  const processing = session?.batch?.batch_status === 'Processing';
  // a staged batch awaiting review is resumed; a finished batch chosen for its history (Export Batch) is not
  if (session?.batch?.batch_status === 'Pending') return <Navigate to="/payments/transactions" replace />;

  const chooseType = (type: 'manual' | 'batch') => {
    if (processing) return notify('info', PAYMENT_MSG.batchProcessing);
    setSel({ ...sel, type });
    setStep(1);
  };
  const options = holders.data?.data ?? [];
  // merchant and brand users act for themselves: their own entry is preselected
  const own = selfService
    ? options.find(
        (o) => o.id === (role === 'Brand' || role === 'Merchant' ? session?.user.id : session?.user.parent?.id),
      )
    : undefined;
  const holder = sel.holder ?? own ?? null;
  const pickAccount = async (a: AccountChoice) => {
    setSel({ ...sel, holder, account: a, balance: null });
    try {
      const r = await accountBalance({ account_reference: a.account_reference, account_id: a.account_id });
      setSel((s) => ({ ...s, account: a, balance: r.balance, fee: r.fee }));
    } catch (err) {
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
    }
  };
  const banner = perms.includes('User can view merchant balance') && step < 3;
  const brands = holder
    ? holder.roles[0]?.name === 'Brand'
      ? [holder.name]
      : (holder.active_brands ?? []).map((b) => b.name)
    : [];

  return (
    <>
      <PageTitle>Payments</PageTitle>
      <Paper sx={{ p: { xs: 2, sm: 3 } }}>
        <PaymentsStepper step={step} />
        {banner ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            {sel.balance !== null && sel.account
              ? `Available balance of ${sel.account.merchant_name}: ${euro(sel.balance)}`
              : session?.account?.account_id && session.account.account_reference !== 'Fee Account'
                ? `Available balance: ${euro(session.account.balance)}`
                : 'Choose a merchant or brand and an account to see the available balance.'}
          </Alert>
        ) : null}

        {step === 0 ? (
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {perms.includes('User can able to issue a transfer on behalf of merchant') ? (
                <Card variant="outlined" sx={{ flex: 1 }}>
                  <CardActionArea onClick={() => chooseType('manual')}>
                    <CardContent>
                      <Typography component="h2" variant="h6">
                        Manual Payout
                      </Typography>
                      <Typography color="textSecondary">
                        One payout to one wallet, approved with a one-time code.
                      </Typography>
                    </CardContent>
                  </CardActionArea>
                </Card>
              ) : null}
              {perms.includes('User can able to issue mass payout on behalf of merchant') ? (
                <Card variant="outlined" sx={{ flex: 1 }}>
                  <CardActionArea onClick={() => chooseType('batch')}>
                    <CardContent>
                      <Typography component="h2" variant="h6">
                        Batch Payout
                      </Typography>
                      <Typography color="textSecondary">
                        Upload a CSV or spreadsheet of payouts, review, then execute.
                      </Typography>
                    </CardContent>
                  </CardActionArea>
                </Card>
              ) : null}
            </Stack>
            <Box>
              <Button onClick={() => setChecker(true)}>Obol Checker</Button>
            </Box>
          </Stack>
        ) : null}

        {step === 1 ? (
          <Stack spacing={2}>
            {role === 'Brand' ? (
              holder ? (
                <Typography>
                  Paying out for <strong>{holder.name}</strong>
                </Typography>
              ) : holders.isLoading ? (
                <CircularProgress size={24} />
              ) : (
                <Alert severity="warning">{PAYMENT_MSG.noHolder}</Alert>
              )
            ) : (
              <Autocomplete
                options={options.flatMap((o) => [o, ...o.active_brands])}
                getOptionLabel={(o) => `${o.name} (${o.roles[0]?.name})`}
                isOptionEqualToValue={(a, b) => a.id === b.id}
                value={holder}
                onChange={(_, v) => setSel({ ...sel, holder: v, account: null, balance: null })}
                onInputChange={(_, v, reason) => reason === 'input' && setSearch(v)}
                loading={holders.isLoading}
                noOptionsText={PAYMENT_MSG.noHolder}
                renderInput={(params) => <TextField {...params} label="Merchant or brand" />}
              />
            )}
            <Stack direction="row" spacing={2}>
              <Button onClick={() => setStep(0)}>Previous</Button>
              <Button
                variant="contained"
                disabled={!holder}
                onClick={() => {
                  setSel({ ...sel, holder });
                  setStep(2);
                }}
              >
                Next
              </Button>
            </Stack>
          </Stack>
        ) : null}

        {step === 2 ? (
          <AccountStep
            accounts={accounts.data ? [...accounts.data.data, ...(feeAccount.data?.data ?? [])] : undefined}
            loading={accounts.isLoading || feeAccount.isLoading}
            chosen={sel.account}
            ready={sel.balance !== null}
            onPick={pickAccount}
            onPrevious={() => setStep(1)}
            onNext={() => setStep(3)}
          />
        ) : null}

        {step === 3 && sel.type === 'manual' ? (
          <ManualPayoutForm selection={sel} brands={brands} onPrevious={() => setStep(2)} />
        ) : null}
        {step === 3 && sel.type === 'batch' ? <UploadStep selection={sel} onPrevious={() => setStep(2)} /> : null}
      </Paper>
      <CheckerDialog open={checker} onClose={() => setChecker(false)} check={walletChecker} />
    </>
  );
}
