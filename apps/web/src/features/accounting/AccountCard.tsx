import type { CompanyAccount } from '@obol/contract';
import { Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { money } from './labels.tsx';

/** The chosen account: its available balance (cents, in its currency) and IBAN; a placeholder until chosen. */
export function AccountCard({ account, loading }: { account: CompanyAccount | undefined; loading: boolean }) {
  return (
    <Card variant="outlined" sx={{ flex: 1, minWidth: 0 }} aria-label="Account details" component="section">
      <CardContent>
        <Typography variant="body2" color="textSecondary">
          Available balance
        </Typography>
        {loading ? (
          <Skeleton width={160} height={40} />
        ) : (
          <Typography component="p" variant="h5" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
            {account ? money(account.balance, account.currency) : '–'}
          </Typography>
        )}
        {account ? (
          <>
            <Typography variant="body2">{account.name}</Typography>
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
              <Typography variant="caption" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
                IBAN {account.account_iban}
              </Typography>
              <CopyButton text={account.account_iban} label="Copy the IBAN" />
            </Stack>
            <Typography variant="caption" color="textSecondary" component="p">
              BIC {account.account_bic} · {account.currency}
            </Typography>
          </>
        ) : (
          <Typography variant="caption" color="textSecondary">
            Choose the company and the account to transfer from
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
