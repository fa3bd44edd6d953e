import { ALL_PERMISSIONS } from '@obol/contract';
import { screen, waitFor } from '@testing-library/react';
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

  it('downloads the backup codes for the own e-mail as a file', async () => {
    const fetch = mockApi({
      '/api/export-backup-code': () => ({
        text: 'ABCDE-12345\n',
        headers: { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="obol-codes.txt"' },
      }),
    });
    const createObjectURL = vi.fn(() => 'blob:codes');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    signInAs(ALL_PERMISSIONS, { email: 'ada@obol.example' });
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: 'Download backup codes' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(callsTo(fetch, '/api/export-backup-code')[0]).toEqual({ email: 'ada@obol.example' });
    expect(createObjectURL).toHaveBeenCalled();
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('obol-codes.txt');
  });
});
