import { hasOwnApiKey } from '@obol/contract';
import { Grid, Stack } from '@mui/material';
import { useSession } from '../../lib/session.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { ApiKeyCard } from './ApiKeyCard.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { PasskeysCard } from './PasskeysCard.tsx';
import { ProfileOverview } from './ProfileOverview.tsx';
import { TwoFactorCard } from './TwoFactorCard.tsx';

/**
 * The user's profile (document 3, section 2, "Profile overview"): who they are and the balances their role sees,
 * the Obol Checker, the 2FA-for-payouts switch with backup codes, a merchant's or brand's own API key, and the
 * change-password form.
 */
export function ProfilePage() {
  const session = useSession();
  if (!session) return null;
  return (
    <>
      <PageTitle>User Profile</PageTitle>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={2}>
            <ProfileOverview />
            <TwoFactorCard />
            {hasOwnApiKey(session.user.role) ? <ApiKeyCard /> : null}
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={2}>
            <ChangePasswordCard />
            <PasskeysCard />
          </Stack>
        </Grid>
      </Grid>
    </>
  );
}
