import { ACCOUNTING_MSG, DEFAULT_ROLE_PERMISSIONS, MSG } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs, type Handler } from '../../test-utils.tsx';
import { choiceHandlers, transaction } from './testFixtures.ts';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.restoreAllMocks());

const input = (label: string) => screen.getByLabelText(label, { exact: false }) as HTMLInputElement;
const pick = async (combobox: string, option: string | RegExp) => {
  await userEvent.click(screen.getByRole('combobox', { name: combobox }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
};

function server(extra: Record<string, Handler> = {}) {
  return mockApi({
    ...choiceHandlers,
    '/api/generate-accounting-otp': () => ({ body: { message: [ACCOUNTING_MSG.codeSent] } }),
    ...extra,
  });
}

async function openAccount(name: RegExp) {
  signInAs(DEFAULT_ROLE_PERMISSIONS['2D Admin'], { role: '2D Admin' });
  renderApp('/accounting-payment');
  expect(await screen.findByRole('heading', { name: '2D Payments', level: 1 })).toBeTruthy();
  await pick('Company', 'Company 1');
  await pick('Account', name);
}

describe('2D Payments', () => {
  it('keeps the form shut without a balance and says so on Transfer Amount', async () => {
    server();
    signInAs(DEFAULT_ROLE_PERMISSIONS['2D Admin'], { role: '2D Admin' });
    renderApp('/accounting-payment');
    expect(await screen.findByText(ACCOUNTING_MSG.selectAccount)).toBeTruthy();
    expect(input('Amount (cents)').disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Transfer Amount' }));
    // the notice on the form, and the error toast
    await waitFor(() => expect(screen.getAllByText(ACCOUNTING_MSG.selectAccount).length).toBe(2));

    await pick('Company', 'Company 1');
    await pick('Account', /Account 1002/);
    expect(await screen.findByText('This account has no balance to transfer.')).toBeTruthy();
    expect(input('Amount (cents)').disabled).toBe(true);
  });

  it('checks the amount and the purpose with the spec messages', async () => {
    const fetch = server();
    await openAccount(/Account 1001/);
    expect(await screen.findByText('€500.00')).toBeTruthy();
    expect(screen.getByText(/IBAN DE89370400440532011001/)).toBeTruthy();
    await waitFor(() => expect(input('Amount (cents)').disabled).toBe(false));

    await userEvent.click(screen.getByRole('button', { name: 'Transfer Amount' }));
    expect(screen.getAllByText(MSG.required).length).toBe(3);
    for (const [typed, message] of [
      ['1.5', ACCOUNTING_MSG.amountWhole],
      ['-3', ACCOUNTING_MSG.amountPositive],
      ['0', ACCOUNTING_MSG.amountPositive],
      ['50001', ACCOUNTING_MSG.amountExceeds],
    ]) {
      await userEvent.clear(input('Amount (cents)'));
      await userEvent.type(input('Amount (cents)'), typed);
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(input('Amount (cents)').maxLength).toBe(50);
    await userEvent.type(input('Purpose of payment'), 'Rent #1');
    expect(await screen.findByText(ACCOUNTING_MSG.alphanumeric)).toBeTruthy();
    expect(input('Purpose of payment').maxLength).toBe(100);
    await userEvent.click(screen.getByRole('button', { name: 'Transfer Amount' }));
    expect(callsTo(fetch, '/api/generate-accounting-otp')).toEqual([]);
  });

  it('lists beneficiaries by type, then transfers with the code bound to the transfer', async () => {
    const fetch = server({
      '/api/accounting-transfer': () => ({
        status: 201,
        body: { message: [ACCOUNTING_MSG.transferred], transaction: transaction(9) },
      }),
    });
    await openAccount(/Account 1001/);
    await waitFor(() => expect(input('Amount (cents)').disabled).toBe(false));

    // External: the company's beneficiaries, with their IBAN and BIC read-only
    await pick('Beneficiary', /Acme Supplies GmbH/);
    expect(input('Beneficiary IBAN').value).toBe('DE89370400440532013000');
    expect(input('Beneficiary BIC').readOnly).toBe(true);
    // Internal: the company's other accounts; the type change resets the beneficiary
    await userEvent.click(screen.getByRole('radio', { name: 'Internal' }));
    expect(input('Beneficiary IBAN').value).toBe('');
    await userEvent.click(screen.getByRole('combobox', { name: 'Beneficiary' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options.some((o) => o?.includes('Account 1001'))).toBe(false);
    expect(options.some((o) => o?.includes('Account 1003'))).toBe(true);
    await userEvent.click(screen.getByRole('option', { name: /Account 1003/ }));

    await userEvent.type(input('Amount (cents)'), '2500');
    await userEvent.type(input('Purpose of payment'), 'Invoice 2026 11');
    await userEvent.click(screen.getByRole('button', { name: 'Transfer Amount' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter the verification code' });
    const bound = {
      company_id: 1,
      account_id: '1001',
      beneficiary_id: '1003',
      amount: 2500,
      reference: 'Invoice 2026 11',
      transfer_type: 'internal_transfer',
    };
    expect(callsTo(fetch, '/api/generate-accounting-otp')).toEqual([bound]);
    expect(await screen.findByText(ACCOUNTING_MSG.codeSent)).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Verification code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(callsTo(fetch, '/api/accounting-transfer')).toHaveLength(1));
    expect(callsTo(fetch, '/api/accounting-transfer')[0]).toEqual({
      ...bound,
      otp: '123456',
      idempotency_key: expect.any(String),
    });
    expect(await screen.findByText(ACCOUNTING_MSG.transferred)).toBeTruthy();
    // a receipt: what moved, from where, to whom, its reference and status, and its list
    const receipt = await screen.findByRole('region', { name: 'Receipt: 2D payment submitted' });
    expect(receipt.textContent).toContain('€25.00');
    expect(receipt.textContent).toContain('Company 1, account 1001');
    expect(receipt.textContent).toContain('Acme Supplies GmbH, IBAN DE89370400440532013000');
    expect(receipt.textContent).toContain('2D transaction 9');
    expect(within(receipt).getByText('Completed')).toBeTruthy();
    expect(within(receipt).getByRole('link', { name: 'See it in 2D Transactions' }).getAttribute('href')).toBe(
      '/accounting-transactions',
    );
    // amount and purpose start over; the company and account stay chosen for the next payment
    await waitFor(() => expect(input('Amount (cents)').value).toBe(''));
    expect(input('Purpose of payment').value).toBe('');
    expect(screen.getByRole('combobox', { name: 'Company' }).textContent).toContain('Company 1');
    expect(screen.getByRole('combobox', { name: 'Account' }).textContent).toContain('1001');
  });

  it('shows a refused code in the dialog and retries with the same idempotency key', async () => {
    let tries = 0;
    const fetch = server({
      '/api/accounting-transfer': () =>
        ++tries === 1
          ? { status: 422, body: { error: [MSG.invalidCode], fields: { otp: [MSG.invalidCode] } } }
          : { status: 201, body: { message: [ACCOUNTING_MSG.transferPending], transaction: transaction(9) } },
    });
    await openAccount(/Account 1001/);
    await waitFor(() => expect(input('Amount (cents)').disabled).toBe(false));
    await pick('Beneficiary', /Globex Ltd/);
    await userEvent.type(input('Amount (cents)'), '100');
    await userEvent.type(input('Purpose of payment'), 'Fees');
    await userEvent.click(screen.getByRole('button', { name: 'Transfer Amount' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Enter the verification code' }));
    await userEvent.type(dialog.getByLabelText('Verification code'), '999999');
    await userEvent.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(MSG.invalidCode)).toBeTruthy();
    await userEvent.clear(dialog.getByLabelText('Verification code'));
    await userEvent.type(dialog.getByLabelText('Verification code'), '123456');
    await userEvent.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(ACCOUNTING_MSG.transferPending)).toBeTruthy();
    const [first, second] = callsTo(fetch, '/api/accounting-transfer') as { idempotency_key: string }[];
    expect(second.idempotency_key).toBe(first.idempotency_key);
    expect(callsTo(fetch, '/api/accounting-transfer')[1]).toMatchObject({
      beneficiary_id: 'B-2',
      transfer_type: 'external_transfer',
      amount: 100,
      otp: '123456',
    });
  });
});
