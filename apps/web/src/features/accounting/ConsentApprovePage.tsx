import { ACCOUNTING_MSG } from '@obol/contract';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { approveConsent, consentDetailsQuery } from './api/consent.ts';

/** A link the server does not know (or no longer) says so; anything else is the server's own message. */
const linkError = (err: unknown) =>
  err instanceof ApiError && [400, 404, 410, 422].includes(err.status)
    ? ACCOUNTING_MSG.consentInvalid
    : errorMessage(err);

/**
 * /consent-approve?token=…, public: the company's account holder sees which company asks for access to which of
 * its accounts, and approves it once. A link that is not valid (or expired) says so; an approved one says it was.
 */
export function ConsentApprovePage() {
  const [params] = useSearchParams();
  const token = (params.get('token') ?? '').trim().slice(0, 200);
  const q = useQuery(consentDetailsQuery(token));
  const approve = useMutation({ mutationFn: () => approveConsent({ token }) });

  const body = () => {
    if (!token) return <Alert severity="error">{ACCOUNTING_MSG.consentInvalid}</Alert>;
    if (q.isError) return <Alert severity="error">{linkError(q.error)}</Alert>;
    if (!q.data) return <CircularProgress size={24} aria-label="Loading" />;
    const d = q.data;
    const done = approve.isSuccess;
    return (
      <Stack spacing={2}>
        <Typography>
          <strong>{d.company_name}</strong> ({d.email}) asks for access to{' '}
          {d.accounts.length === 1 ? 'this account' : `these ${d.accounts.length} accounts`} for Obol:
        </Typography>
        <Paper variant="outlined">
          <List dense disablePadding aria-label="Accounts to be shared">
            {d.accounts.map((a) => (
              <ListItem key={a.account_iban} divider>
                <ListItemText
                  primary={a.name}
                  secondary={
                    <>
                      IBAN <span style={{ wordBreak: 'break-all' }}>{a.account_iban}</span> · {a.currency}
                    </>
                  }
                />
              </ListItem>
            ))}
          </List>
        </Paper>
        {d.approved && !done ? (
          <Alert severity="info">This account access has already been approved.</Alert>
        ) : done ? (
          <Alert severity="success">{approve.data.message[0] ?? ACCOUNTING_MSG.consentApproved}</Alert>
        ) : (
          <>
            <Typography variant="body2" color="textSecondary">
              Approving lets Obol see the balances of these accounts and make the transfers the company orders from
              them.
            </Typography>
            {approve.isError ? <Alert severity="error">{linkError(approve.error)}</Alert> : null}
            <Box>
              <Button variant="contained" onClick={() => approve.mutate()} disabled={approve.isPending}>
                Approve
              </Button>
            </Box>
          </>
        )}
      </Stack>
    );
  };

  return (
    <AuthLayout title="Approve account access" maxWidth={520}>
      {body()}
    </AuthLayout>
  );
}
