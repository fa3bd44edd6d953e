import { ALL_PERMISSIONS } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session.ts';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const incorrect = () => ({
  status: 400,
  body: { error: ['Incorrect Password.'], fields: { current_password: ['Incorrect Password.'] } },
});
const setupAnswer = () => ({
  body: {
    otpauth_url: 'otpauth://totp/Obol:ada%40obol.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Obol',
    secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    qr_code: 'data:image/svg+xml;base64,PHN2Zy8+',
    expires_at: new Date(Date.now() + 600_000).toISOString(),
    message: ['Scan the QR code'],
  },
});
// hidden: true, as an open dialog hides the page from the accessibility tree
const theSwitch = () => screen.getByRole('switch', { name: '2FA for payouts with an authenticator app', hidden: true });

describe('the 2FA-for-payouts switch', () => {
  it('turns the authenticator on only after the password, the QR code and a code; cancel leaves it off', async () => {
    let setups = 0;
    let enables = 0;
    const fetch = mockApi({
      '/api/two-fa-setup': () => (++setups === 1 ? incorrect() : setupAnswer()),
      '/api/enable-two-fa': () =>
        ++enables === 1
          ? { status: 422, body: { error: ['Invalid or expired code'], fields: { code: ['Invalid or expired code'] } } }
          : { body: { two_fa_as_otp: false, message: ['Codes now come from your authenticator app.'] } },
    });
    signInAs(ALL_PERMISSIONS, { email: 'ada@obol.example' });
    renderApp('/user-profile');
    expect((theSwitch() as HTMLInputElement).checked).toBe(false);

    // cancel: nothing sent, the switch stays off
    await userEvent.click(theSwitch());
    let dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((theSwitch() as HTMLInputElement).checked).toBe(false);
    expect(callsTo(fetch, '/api/two-fa-setup')).toHaveLength(0);

    await userEvent.click(theSwitch());
    dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(callsTo(fetch, '/api/two-fa-setup')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong{Enter}');
    expect(await within(dialog).findByText('Incorrect Password.')).toBeTruthy();
    expect((theSwitch() as HTMLInputElement).checked).toBe(false);
    const field = within(dialog).getByLabelText('Password');
    await userEvent.clear(field);
    await userEvent.type(field, 'Obol@2026{Enter}');

    const enrol = await screen.findByRole('dialog', { name: 'Scan the QR code' });
    const qr = within(enrol).getByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(within(enrol).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    const code = within(enrol).getByLabelText('Code from the app');
    await userEvent.type(code, '12a');
    expect((code as HTMLInputElement).value).toBe('12');
    await userEvent.click(within(enrol).getByRole('button', { name: 'Turn on' }));
    expect(await within(enrol).findByText('The code has 6 digits')).toBeTruthy();
    expect(callsTo(fetch, '/api/enable-two-fa')).toHaveLength(0);
    await userEvent.type(code, '3456{Enter}');
    expect(await within(enrol).findByText('Invalid or expired code')).toBeTruthy();
    expect((theSwitch() as HTMLInputElement).checked).toBe(false);
    await userEvent.clear(code);
    await userEvent.type(code, '654321{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((theSwitch() as HTMLInputElement).checked).toBe(true);
    expect(sessionStore.get()?.user.two_fa_as_otp).toBe(false);
    expect(await screen.findByText('Codes now come from your authenticator app.')).toBeTruthy();
    expect(callsTo(fetch, '/api/two-fa-setup')).toEqual([
      { current_password: 'wrong' },
      { current_password: 'Obol@2026' },
    ]);
    expect(callsTo(fetch, '/api/enable-two-fa')).toEqual([
      { enable_two_fa: true, current_password: 'Obol@2026', code: '123456' },
      { enable_two_fa: true, current_password: 'Obol@2026', code: '654321' },
    ]);
  });

  it('cancelling the QR code step leaves e-mail codes', async () => {
    const fetch = mockApi({ '/api/two-fa-setup': setupAnswer });
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await userEvent.click(theSwitch());
    const dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Obol@2026{Enter}');
    const enrol = await screen.findByRole('dialog', { name: 'Scan the QR code' });
    await userEvent.click(within(enrol).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((theSwitch() as HTMLInputElement).checked).toBe(false);
    expect(sessionStore.get()?.user.two_fa_as_otp).toBe(true);
    expect(callsTo(fetch, '/api/enable-two-fa')).toHaveLength(0);
  });

  it('switches back to e-mail codes after the password; a wrong one leaves the authenticator on', async () => {
    let calls = 0;
    const fetch = mockApi({
      '/api/enable-two-fa': () =>
        ++calls === 1
          ? incorrect()
          : { body: { two_fa_as_otp: true, message: ['Codes are now sent to your e-mail.'] } },
    });
    signInAs(ALL_PERMISSIONS);
    sessionStore.update({ user: { ...sessionStore.get()!.user, two_fa_as_otp: false } });
    renderApp('/user-profile');
    expect((theSwitch() as HTMLInputElement).checked).toBe(true);
    await userEvent.click(theSwitch());
    const dialog = await screen.findByRole('dialog', { name: 'Send codes by e-mail' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong{Enter}');
    expect(await within(dialog).findByText('Incorrect Password.')).toBeTruthy();
    expect((theSwitch() as HTMLInputElement).checked).toBe(true);
    const field = within(dialog).getByLabelText('Password');
    await userEvent.clear(field);
    await userEvent.type(field, 'Obol@2026{Enter}');
    await waitFor(() => expect((theSwitch() as HTMLInputElement).checked).toBe(false));
    expect(sessionStore.get()?.user.two_fa_as_otp).toBe(true);
    expect(callsTo(fetch, '/api/enable-two-fa').at(-1)).toEqual({
      enable_two_fa: false,
      current_password: 'Obol@2026',
    });
  });
});
