import { STAFF_ROLES } from '@obol/contract';
import { Alert, Button, Skeleton } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { ownAccountsQuery } from './api/transfers.ts';
import { TransferForm, type TransferSource } from './TransferForm.tsx';

/**
 * Amount Transfer: a transfer from the caller's own payout, pay-in or CLP account (a merchant's, or its brand's)
 * to an IBAN. Staff have no accounts of their own: the Admin transfers from the Fee Account, other staff are
 * pointed to Merchants Payout.
 */
export function AmountTransferPage() {
  const session = useSession();
  const role = session?.user.role;
  const staff = !!role && (STAFF_ROLES as readonly string[]).includes(role);
  const q = useQuery(ownAccountsQuery());
  const body = () => {
    if (q.isError) return <Alert severity="error">{errorMessage(q.error)}</Alert>;
    if (!q.data) return <Skeleton variant="rounded" height={240} />;
    if (staff && role !== 'Admin')
      return (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/merchants-payout" color="inherit" size="small">
              Merchants Payout
            </Button>
          }
        >
          Your user has no accounts of its own. Transfers from a merchant’s or brand’s account are made in Merchants
          Payout.
        </Alert>
      );
    const a = q.data;
    const sources: TransferSource[] = staff
      ? [{ kind: 'fee', account_id: a.account_id }]
      : [
          { kind: 'payout', account_id: a.account_id },
          { kind: 'payin', account_id: a.payin_account_id },
          { kind: 'clp', account_id: a.clp_account_id },
        ];
    return <TransferForm sources={sources} holderName={staff ? 'the Fee Account' : (session?.user.name ?? '')} />;
  };
  return (
    <>
      <PageTitle>Amount Transfer</PageTitle>
      {body()}
    </>
  );
}
