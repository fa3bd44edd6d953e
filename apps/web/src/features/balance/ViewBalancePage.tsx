import { PAYMENT_MSG, type HolderBalance, type HolderChoice } from '@obol/contract';
import {
  Alert,
  Autocomplete,
  Box,
  Card,
  CardContent,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { euro } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { balanceHoldersQuery, holderBalancesQuery } from './api/balances.ts';

const KIND_LABEL: Record<string, string> = {
  payout: 'Payout balance',
  payin: 'Pay-in balance',
  clp: 'CLP balance',
  fee: 'Fee Account balance',
};

/** The chooser's entries: the Fee Account first for the Admin, then each merchant followed by its brands. */
type Choice = Pick<HolderChoice, 'id' | 'name'> & { kind: string };
const FEE_ACCOUNT: Choice = { id: 0, name: 'Fee Account', kind: 'Platform' };

function BalanceCard({ a }: { a: HolderBalance }) {
  return (
    <Card variant="outlined" sx={{ flex: 1, minWidth: 0 }}>
      <CardContent>
        <Typography variant="body2" color="textSecondary">
          {KIND_LABEL[a.kind] ?? a.kind}
        </Typography>
        <Typography component="p" variant="h5" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
          {euro(a.balance)}
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Typography variant="caption" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
            Account id {a.account_id}
          </Typography>
          <CopyButton text={a.account_id} label={`Copy the ${KIND_LABEL[a.kind] ?? a.kind} account id`} />
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The balances of the chosen holder: one card per account, its account reference and fee. */
function Balances({ id }: { id: number }) {
  const q = useQuery(holderBalancesQuery(id));
  if (q.isError) return <Alert severity="error">{errorMessage(q.error)}</Alert>;
  if (!q.data)
    return (
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} aria-busy>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={110} sx={{ flex: 1 }} />
        ))}
      </Stack>
    );
  const b = q.data;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 3 }} sx={{ flexWrap: 'wrap' }}>
        <Typography>
          <Box component="span" sx={{ color: 'text.secondary' }}>
            Holder{' '}
          </Box>
          <strong>{b.name}</strong>
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Typography sx={{ wordBreak: 'break-all' }}>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              Account reference{' '}
            </Box>
            <strong>{b.account_reference}</strong>
          </Typography>
          <CopyButton text={b.account_reference} label="Copy the account reference" />
        </Stack>
        {b.fee !== null ? (
          <Typography>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              Fee{' '}
            </Box>
            <strong>{b.fee}%</strong>
          </Typography>
        ) : null}
      </Stack>
      {b.data.length ? (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          {b.data.map((a) => (
            <BalanceCard key={a.kind} a={a} />
          ))}
        </Stack>
      ) : (
        <Alert severity="info">No account is open for {b.name}.</Alert>
      )}
    </Stack>
  );
}

/**
 * The balance screen (document 3, 'Fee-account balance'): staff and merchants pick a merchant or brand (the Admin
 * also the Fee Account) and see its balances and account reference; a brand sees its own, with no chooser.
 */
export function ViewBalancePage() {
  const session = useSession();
  const role = session?.user.role;
  const isBrand = role === 'Brand';
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [chosen, setChosen] = useState<Choice | null>(null);
  // the chooser searches on the server, a moment after typing stops
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 400);
    return () => clearTimeout(t);
  }, [typed]);
  const holders = useQuery({ ...balanceHoldersQuery(search), enabled: !!session && !isBrand });
  if (!session) return null;

  const options: Choice[] = [
    ...(role === 'Admin' ? [FEE_ACCOUNT] : []),
    ...(holders.data?.data ?? []).flatMap((m) => [
      { id: m.id, name: m.name, kind: m.roles[0]?.name ?? '' },
      ...m.active_brands.map((b) => ({ id: b.id, name: b.name, kind: b.roles[0]?.name ?? '' })),
    ]),
  ];
  const shown = isBrand ? session.user.id : chosen?.id;

  return (
    <>
      <PageTitle>View Balance</PageTitle>
      <Paper sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={3}>
          {isBrand ? null : (
            <Autocomplete
              sx={{ maxWidth: 480 }}
              options={options}
              filterOptions={(o) => o}
              getOptionLabel={(o) => (o.id === 0 ? o.name : `${o.name} (${o.kind})`)}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              value={chosen}
              onChange={(_, v) => setChosen(v)}
              onInputChange={(_, v, reason) => reason === 'input' && setTyped(v)}
              loading={holders.isFetching}
              noOptionsText={PAYMENT_MSG.noHolder}
              renderInput={(params) => <TextField {...params} label="Merchant or brand" />}
            />
          )}
          {holders.isError ? <Alert severity="error">{errorMessage(holders.error)}</Alert> : null}
          {shown !== undefined ? (
            <Balances id={shown} />
          ) : (
            <Typography color="textSecondary">
              Choose a merchant or brand{role === 'Admin' ? ', or the Fee Account,' : ''} to see its balances.
            </Typography>
          )}
        </Stack>
      </Paper>
    </>
  );
}
