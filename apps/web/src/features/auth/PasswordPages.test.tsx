import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callsTo, mockApi, pathname, renderApp } from '../../test-utils.tsx';

describe('password pages', () => {
  it('checks the link first and shows why an expired one cannot be used', async () => {
    mockApi({
      '/api/check-link-expiry': () => ({
        status: 400,
        body: { error: ['This link has expired or has already been used'] },
      }),
    });
    renderApp('/new-password/tok/ada%40obol.example');
    expect(await screen.findByText('This link has expired or has already been used')).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('shows the password rules per field and sets the password', async () => {
    const fetch = mockApi({
      '/api/check-link-expiry': () => ({ body: { message: ['Link is valid'] } }),
      '/api/set-password': () => ({ body: { message: ['Password set successfully'] } }),
    });
    renderApp('/new-password/tok/ada%40obol.example');
    const pw = await screen.findByLabelText('New password');
    expect(callsTo(fetch, '/api/check-link-expiry')[0]).toEqual({ token: 'tok', email: 'ada@obol.example' });
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);

    await userEvent.type(pw, 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    // under the field: the first broken rule; in the checklist: every rule with its state
    expect(screen.getAllByText('Minimum 7 character required').length).toBeGreaterThanOrEqual(2);
    const rules = screen.getByRole('list', { name: 'Password rules' });
    expect(rules.querySelectorAll('[data-ok="true"]')).toHaveLength(1); // the alphabet rule
    await userEvent.type(screen.getByLabelText('Confirm password'), 'different');
    await userEvent.clear(pw);
    await userEvent.type(pw, 'Obol@2027');
    expect(rules.querySelectorAll('[data-ok="false"]')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Password does not match')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Obol@2027');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(pathname()).toBe('/password-success'));
    expect(callsTo(fetch, '/api/set-password')[0]).toEqual({
      token: 'tok',
      email: 'ada@obol.example',
      password: 'Obol@2027',
      password_confirmation: 'Obol@2027',
    });
  });

  it('asks for a reset link and shows the answer', async () => {
    mockApi({ '/api/forgot-password': () => ({ body: { message: ['A link has been sent'] } }) });
    renderApp('/forgot-password');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@obol.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText('A link has been sent')).toBeTruthy();
  });
});
