import { TWO_FA_MSG, type TwoFaSetupResponse } from '@obol/contract';
import { Box, FormControlLabel, Paper, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { sessionStore, useSession } from '../../lib/session.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { enableTwoFa } from './api/enableTwoFa.ts';
import { twoFaSetup } from './api/twoFaSetup.ts';
import { BackupCodesButton } from './BackupCodesButton.tsx';
import { EnrolDialog } from './EnrolDialog.tsx';
import { PasswordDialog } from '../../ui/PasswordDialog.tsx';

/**
 * The 2FA-for-payouts switch: codes for sign-in and payouts by e-mail (off) or from an authenticator app (on). It
 * moves only once the change is done: turning it on asks for the password, shows a QR code and takes a code from
 * the app; turning it off asks for the password. Cancelling anywhere leaves it as it was.
 */
export function TwoFactorCard() {
  const session = useSession();
  const { notify } = useNotify();
  const [asking, setAsking] = useState<'on' | 'off' | null>(null);
  const [enrolment, setEnrolment] = useState<{ setup: TwoFaSetupResponse; password: string } | null>(null);
  if (!session) return null;
  const { user } = session;
  const done = (twoFaAsOtp: boolean, message: string) => {
    const current = sessionStore.get();
    if (current) sessionStore.update({ user: { ...current.user, two_fa_as_otp: twoFaAsOtp } });
    notify('success', message);
  };

  return (
    <Paper sx={{ p: 3 }}>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Second factor
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={!user.two_fa_as_otp}
            onChange={(e) => setAsking(e.target.checked ? 'on' : 'off')}
            slotProps={{ input: { 'aria-describedby': 'two-fa-help' } }}
          />
        }
        label="2FA for payouts with an authenticator app"
      />
      <Typography id="two-fa-help" variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        {user.two_fa_as_otp
          ? 'Codes for signing in and approving payouts are sent to your e-mail.'
          : 'Codes for signing in and approving payouts come from your authenticator app.'}
      </Typography>
      <Box>
        <BackupCodesButton email={user.email} />
      </Box>

      <PasswordDialog
        open={asking === 'on'}
        title="Set up an authenticator app"
        text="Enter your password. You will then scan a QR code with your authenticator app and enter the code it shows."
        confirmLabel="Continue"
        onCancel={() => setAsking(null)}
        onConfirm={async (password) => {
          const setup = await twoFaSetup({ current_password: password });
          setAsking(null);
          setEnrolment({ setup, password });
        }}
      />
      <PasswordDialog
        open={asking === 'off'}
        title="Send codes by e-mail"
        text="Enter your password. Codes will be sent to your e-mail, and your authenticator app will no longer work for Obol."
        confirmLabel="Switch to e-mail"
        onCancel={() => setAsking(null)}
        onConfirm={async (password) => {
          const r = await enableTwoFa({ enable_two_fa: false, current_password: password });
          setAsking(null);
          done(r.two_fa_as_otp, r.message[0] ?? TWO_FA_MSG.toEmail);
        }}
      />
      {enrolment ? (
        <EnrolDialog
          setup={enrolment.setup}
          onCancel={() => setEnrolment(null)}
          onConfirm={async (code) => {
            const r = await enableTwoFa({ enable_two_fa: true, current_password: enrolment.password, code });
            setEnrolment(null);
            done(r.two_fa_as_otp, r.message[0] ?? TWO_FA_MSG.toAuthenticator);
          }}
        />
      ) : null}
    </Paper>
  );
}
