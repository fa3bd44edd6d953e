import { Alert, Button, CircularProgress, FormControlLabel, Radio, RadioGroup, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import type { AccountChoice } from './types.ts';

const FEE_ACCOUNT = 'Fee Account';

interface Props {
  accounts: AccountChoice[] | undefined;
  loading: boolean;
  chosen: AccountChoice | null;
  /** the chosen account's balance is loaded: the user may go on */
  ready: boolean;
  onPick: (a: AccountChoice) => void;
  onPrevious: () => void;
  onNext: () => void;
}

/** Step 3: the payout account. With only one account to choose, it is chosen for the user. */
export function AccountStep({ accounts, loading, chosen, ready, onPick, onPrevious, onNext }: Props) {
  const only = accounts?.length === 1 ? accounts[0] : null;
  useEffect(() => {
    if (only && chosen?.account_id !== only.account_id) onPick(only);
    // onPick changes every render; the choice is made once per account list
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [only]);
  return (
    <Stack spacing={2}>
      {loading ? (
        <CircularProgress size={24} aria-label="Loading accounts" />
      ) : accounts?.length ? (
        <>
          <RadioGroup
            aria-label="Payout account"
            value={chosen?.account_id ?? ''}
            onChange={(e) => onPick(accounts.find((a) => a.account_id === e.target.value)!)}
          >
            {accounts.map((a) => (
              <FormControlLabel
                key={a.account_id}
                value={a.account_id}
                control={<Radio />}
                label={
                  a.account_reference === FEE_ACCOUNT
                    ? `Fee Account: the platform's fees, account ${a.account_id} (no fee is charged)`
                    : `${a.merchant_name}: payout account ${a.account_id} (${a.account_reference})`
                }
                sx={{ overflowWrap: 'anywhere' }}
              />
            ))}
          </RadioGroup>
          {only ? (
            <Typography variant="body2" color="textSecondary">
              This is the only account you can pay out from, so it is chosen for you.
            </Typography>
          ) : null}
        </>
      ) : (
        <Alert severity="warning">Account not registered</Alert>
      )}
      <Stack direction="row" spacing={2}>
        <Button onClick={onPrevious}>Previous</Button>
        <Button variant="contained" disabled={!ready} onClick={onNext}>
          Next
        </Button>
      </Stack>
    </Stack>
  );
}
