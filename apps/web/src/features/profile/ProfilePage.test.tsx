import { ALL_PERMISSIONS } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

describe('user profile', () => {
  it('shows the avatar initials, name, email and role', async () => {
    mockApi();
    signInAs(ALL_PERMISSIONS, { name: 'Grace Brewster Hopper', email: 'grace@obol.example', role: 'Manager' });
    renderApp('/user-profile');
    expect(screen.getByRole('heading', { name: 'User Profile' })).toBeTruthy();
    expect(screen.getAllByText('GB').length).toBeGreaterThan(0);
    expect(screen.getByText('Grace Brewster Hopper')).toBeTruthy();
    expect(screen.getByText('grace@obol.example')).toBeTruthy();
    expect(screen.getByText('Manager')).toBeTruthy();
  });

  it('validates the change-password form and shows the server refusal under the field', async () => {
    const fetch = mockApi({
      '/api/change-password': () => ({
        status: 400,
        body: { error: ['Incorrect Password.'], fields: { current_password: ['Incorrect Password.'] } },
      }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(3);
    await userEvent.type(screen.getByLabelText('Current password'), 'old');
    await userEvent.type(screen.getByLabelText('New password'), 'Obol@2027');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'Obol@2027');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.getAllByText('Incorrect Password.').length).toBeGreaterThanOrEqual(2));
    expect(callsTo(fetch, '/api/change-password')[0]).toEqual({
      current_password: 'old',
      password: 'Obol@2027',
      password_confirmation: 'Obol@2027',
    });
  });

  const codesFile = () => ({
    text: 'ABCDE-12345\n',
    headers: { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="obol-codes.txt"' },
  });
  const stubDownload = () => {
    const createObjectURL = vi.fn(() => 'blob:codes');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    return { createObjectURL, click };
  };

  it('asks for the password, then downloads the backup codes for the own e-mail as a file', async () => {
    const fetch = mockApi({ '/api/export-backup-code': codesFile });
    const { createObjectURL, click } = stubDownload();
    signInAs(ALL_PERMISSIONS, { email: 'ada@obol.example' });
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: 'Download backup codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download backup codes' });
    expect(callsTo(fetch, '/api/export-backup-code')).toHaveLength(0);
    // Enter in the field submits
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Obol@2026{Enter}');
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(callsTo(fetch, '/api/export-backup-code')).toEqual([{ email: 'ada@obol.example', password: 'Obol@2026' }]);
    expect(createObjectURL).toHaveBeenCalled();
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('obol-codes.txt');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends nothing without a password, and shows the server refusal of a wrong one, downloading nothing', async () => {
    let calls = 0;
    const fetch = mockApi({
      '/api/export-backup-code': () =>
        ++calls === 1
          ? {
              status: 400,
              body: { error: ['Incorrect Password.'], fields: { password: ['Incorrect Password.'] } },
            }
          : codesFile(),
    });
    const { click } = stubDownload();
    signInAs(ALL_PERMISSIONS, { email: 'ada@obol.example' });
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: 'Download backup codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download backup codes' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(callsTo(fetch, '/api/export-backup-code')).toHaveLength(0);

    const field = within(dialog).getByLabelText('Password');
    await userEvent.type(field, 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByText('Incorrect Password.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(click).not.toHaveBeenCalled();

    await userEvent.clear(field);
    await userEvent.type(field, 'Obol@2026{Enter}');
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(callsTo(fetch, '/api/export-backup-code')).toEqual([
      { email: 'ada@obol.example', password: 'wrong' },
      { email: 'ada@obol.example', password: 'Obol@2026' },
    ]);
  });

  it('shows when to retry after too many wrong passwords', async () => {
    mockApi({
      '/api/export-backup-code': () => ({
        status: 429,
        body: { error: ['Too many attempts. Please try again in 32 seconds.'] },
        headers: { 'content-type': 'application/json', 'retry-after': '32' },
      }),
    });
    const { click } = stubDownload();
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: 'Download backup codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download backup codes' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Obol@2026{Enter}');
    expect(await within(dialog).findByText('Too many attempts. Please try again in 32 seconds.')).toBeTruthy();
    expect(click).not.toHaveBeenCalled();
    // Cancel closes it
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
