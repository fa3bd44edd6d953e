import { initials, type LoginUserAccountResponse } from '@obol/contract';
import { Avatar, Box, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { euro } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { CheckerDialog } from '../../ui/CheckerDialog.tsx';
import { ownAccountsQuery } from './api/ownAccounts.ts';
import { walletChecker } from './api/walletChecker.ts';

type Balances = 'admin' | 'holder' | 'available' | null;

/**
 * The balances a role sees on its profile (document 3, section 2): Admin the Fee Account's payout, pay-in and CLP
 * balances with their account ids; a Merchant or Brand with 'User can view balance' its own three; anyone else
 * with that permission, except Manager, the 'Available balance'.
 */
function balancesOf(role: string, perms: readonly string[]): Balances {
  if (role === 'Admin') return 'admin';
  if (!perms.includes('User can view balance') || role === 'Manager') return null;
  return role === 'Merchant' || role === 'Brand' ? 'holder' : 'available';
}

function BalanceRow({ label, cents, accountId }: { label: string; cents: number; accountId: string | null }) {
  return (
    <Box>
      <Typography variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Typography sx={{ fontWeight: 600 }}>{accountId ? euro(cents) : 'No account'}</Typography>
      {accountId ? (
        <Typography variant="caption" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
          Account id {accountId}
        </Typography>
      ) : null}
    </Box>
  );
}

function BalanceList({ kind, a }: { kind: Exclude<Balances, null>; a: LoginUserAccountResponse }) {
  if (kind === 'available')
    return (
      <Box>
        <Typography variant="body2" color="textSecondary">
          Available balance
        </Typography>
        <Typography sx={{ fontWeight: 600 }}>{euro(a.balance)}</Typography>
      </Box>
    );
  return (
    <Stack spacing={1}>
      <BalanceRow
        label={kind === 'admin' ? 'Payout balance (Fee Account)' : 'Available balance (payout)'}
        cents={a.balance}
        accountId={a.account_id}
      />
      <BalanceRow label="Pay-in balance" cents={a.payin_balance} accountId={a.payin_account_id} />
      <BalanceRow label="CLP balance" cents={a.clp_balance} accountId={a.clp_account_id} />
    </Stack>
  );
}

/** Avatar, name, e-mail and role; the balances the role sees; the Obol Checker (not for 2D Admin). */
export function ProfileOverview() {
  const session = useSession();
  const [checker, setChecker] = useState(false);
  const user = session?.user;
  const perms = session?.permissions ?? [];
  const balances = user ? balancesOf(user.role, perms) : null;
  const accounts = useQuery({ ...ownAccountsQuery(), enabled: balances !== null });
  if (!session || !user) return null;
  // the checker's call is open to 'User can view payments' or 'User can view profile'
  const showChecker =
    user.role !== '2D Admin' && (perms.includes('User can view payments') || perms.includes('User can view profile'));

  return (
    <Paper sx={{ p: 3 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Avatar sx={{ width: 56, height: 56, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
          {initials(user.name)}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography component="h2" variant="h6">
            {user.name}
          </Typography>
          <Typography color="textSecondary" sx={{ wordBreak: 'break-all' }}>
            {user.email}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {user.role}
            {user.parent ? ` of ${user.parent.name}` : ''}
          </Typography>
        </Box>
      </Stack>
      {balances ? (
        <Box sx={{ mb: 2 }} aria-busy={accounts.isPending}>
          {accounts.data ? (
            <BalanceList kind={balances} a={accounts.data} />
          ) : accounts.isError ? (
            <Typography variant="body2" color="textSecondary">
              The balance could not be loaded.
            </Typography>
          ) : (
            <Skeleton variant="rounded" height={56} />
          )}
        </Box>
      ) : null}
      {showChecker ? (
        <>
          <Button variant="outlined" onClick={() => setChecker(true)}>
            Obol Checker
          </Button>
          <CheckerDialog open={checker} onClose={() => setChecker(false)} check={walletChecker} />
        </>
      ) : null}
    </Paper>
  );
}
