import { ACCOUNTING_MSG, DEFAULT_ROLE_PERMISSIONS, MSG, type RulesResponse } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs, type Handler } from '../../test-utils.tsx';
import { choiceHandlers, rule } from './testFixtures.ts';

vi.setConfig({ testTimeout: 60_000 });

const ROWS = [
  rule(1),
  rule(2, {
    rule_name: 'Sweep',
    rule_type: 'Percentage',
    account_type: true,
    amount: '12.5',
    interval: '14:30',
    interval_type: 'daily',
    interval_day: null,
    status: 0,
  }),
];
const ADMIN_2D = DEFAULT_ROLE_PERMISSIONS['2D Admin'];

function server(extra: Record<string, Handler> = {}) {
  return mockApi({
    ...choiceHandlers,
    '/api/accounting-rules': () => {
      const body: RulesResponse = { rules: ROWS, total: 2, all_rules: 2, active_rules: 1, in_active_rules: 1 };
      return { body };
    },
    '/api/create-accounting-rule': () => ({ status: 201, body: { message: [ACCOUNTING_MSG.ruleCreated] } }),
    ...extra,
  });
}

const pickIn = async (d: ReturnType<typeof within>, combobox: string, option: string | RegExp) => {
  await userEvent.click(d.getByRole('combobox', { name: combobox }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
};
const field = (d: ReturnType<typeof within>, label: RegExp) => d.getByRole('textbox', { name: label });

/** The fields both kinds share, filled: Company 1, its account 1001, to the beneficiary Acme (External). */
async function fillCommon(d: ReturnType<typeof within>) {
  await userEvent.type(field(d, /Rule name/), 'Weekly rent');
  await userEvent.type(field(d, /Reference/), 'Rent');
  await pickIn(d, 'Company', 'Company 1');
  await pickIn(d, 'Account', /Account 1001/);
  await pickIn(d, 'Beneficiary', /Acme Supplies GmbH/);
  expect((d.getByLabelText('Beneficiary IBAN') as HTMLInputElement).value).toBe('DE89370400440532013000');
}

describe('the Rules screen', () => {
  it('lists rules with the counters, amounts, intervals and the rule-type filter', async () => {
    const fetch = server();
    signInAs(ADMIN_2D, { role: '2D Admin' });
    renderApp('/accounting-rules');
    expect(await screen.findByRole('heading', { name: 'Rules', level: 1 })).toBeTruthy();
    expect((await screen.findAllByText('Sweep')).length).toBeGreaterThan(0);
    expect(screen.getByText('Total Rules').nextSibling?.textContent).toBe('2');
    expect(screen.getByText('Inactive Rules').nextSibling?.textContent).toBe('1');
    expect(screen.getAllByText('€25.00').length).toBeGreaterThan(0);
    expect(screen.getAllByText('12.5 %').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Weekly, Monday').length).toBeGreaterThan(0);
    // a daily rule's time shows in its day column (the Interval column is one click away in Columns)
    expect(screen.getAllByText('Daily, 14:30').length).toBeGreaterThan(0);
    expect(screen.getAllByRole('button', { name: 'Copy the beneficiary id of Rule 1' }).length).toBeGreaterThan(0);
    expect(callsTo(fetch, '/api/accounting-rules')[0]).toEqual({ per_page: 10, page: 1, search: '', rule_type: '' });
    await userEvent.click(screen.getByRole('combobox', { name: 'Rule type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Percentage' }));
    await waitFor(() => expect(callsTo(fetch, '/api/accounting-rules').at(-1)).toMatchObject({ rule_type: 1 }));
  });

  it('confirms a status change and a deletion with their warnings', async () => {
    const fetch = server({
      '/api/update-rule-status': () => ({ body: { message: [ACCOUNTING_MSG.ruleActivated] } }),
      '/api/delete-rule': () => ({ body: { message: [ACCOUNTING_MSG.ruleDeleted] } }),
    });
    signInAs(ADMIN_2D, { role: '2D Admin' });
    renderApp('/accounting-rules');
    await userEvent.click((await screen.findAllByRole('switch', { name: 'Active: Rule 1' }))[0]);
    let d = within(await screen.findByRole('alertdialog', { name: 'Deactivate Rule 1?' }));
    expect(d.getByText(/Sure you want to deactivate this rule\?/)).toBeTruthy();
    expect(d.getByText(ACCOUNTING_MSG.ruleDeactivateWarning)).toBeTruthy();
    await userEvent.click(d.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await userEvent.click(screen.getAllByRole('switch', { name: 'Active: Sweep' })[0]);
    d = within(await screen.findByRole('alertdialog', { name: 'Activate Sweep?' }));
    expect(d.getByText('Sure you want to activate this rule?')).toBeTruthy();
    await userEvent.click(d.getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText(ACCOUNTING_MSG.ruleActivated)).toBeTruthy();
    expect(callsTo(fetch, '/api/update-rule-status')).toEqual([{ id: 2, status: 1 }]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await userEvent.click(screen.getAllByRole('button', { name: 'Delete Rule 1' })[0]);
    d = within(await screen.findByRole('alertdialog', { name: 'Delete Rule 1?' }));
    expect(d.getByText(/Sure you want to delete this rule\?/)).toBeTruthy();
    expect(d.getByText(ACCOUNTING_MSG.ruleDeleteWarning)).toBeTruthy();
    await userEvent.click(d.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(ACCOUNTING_MSG.ruleDeleted)).toBeTruthy();
    expect(callsTo(fetch, '/api/delete-rule')).toEqual([{ id: 1 }]);
  });

  it('creates a percentage rule: the contract’s messages first, then its daily UTC time and share', async () => {
    const fetch = server();
    signInAs(ADMIN_2D, { role: '2D Admin' });
    renderApp('/accounting-rules');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Percentage Rule' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create Accounting Rule' }));
    await userEvent.click(d.getByRole('button', { name: 'Create Rule' }));
    // rule name, reference, company, account, beneficiary, percentage and time
    expect(d.getAllByText(MSG.required).length).toBe(7);
    await fillCommon(d);
    await userEvent.type(field(d, /Reference/), '!');
    expect(d.getByText(ACCOUNTING_MSG.alphanumeric)).toBeTruthy();
    await userEvent.type(field(d, /Reference/), '{Backspace}');
    for (const [typed, message] of [
      ['12.345', ACCOUNTING_MSG.percentDecimal],
      ['0', ACCOUNTING_MSG.percentRange],
      ['100.5', ACCOUNTING_MSG.percentRange],
    ]) {
      await userEvent.clear(field(d, /Percentage/));
      await userEvent.type(field(d, /Percentage/), typed);
      expect(d.getByText(message)).toBeTruthy();
    }
    await userEvent.clear(field(d, /Percentage/));
    await userEvent.type(field(d, /Percentage/), '12.5');
    await userEvent.type(field(d, /Time \(UTC\)/), '24:00');
    expect(d.getByText(ACCOUNTING_MSG.timeFormat)).toBeTruthy();
    await userEvent.clear(field(d, /Time \(UTC\)/));
    await userEvent.type(field(d, /Time \(UTC\)/), '14:30');
    await userEvent.click(d.getByRole('button', { name: 'Create Rule' }));
    expect(await screen.findByText(ACCOUNTING_MSG.ruleCreated)).toBeTruthy();
    expect(callsTo(fetch, '/api/create-accounting-rule')).toEqual([
      {
        company_id: 1,
        rule_name: 'Weekly rent',
        beneficiary_id: 'B-1',
        account_id: '1001',
        reference: 'Rent',
        transfer_type: 'external_transfer',
        amount: '12.5',
        account_type: true,
        interval: '14:30',
      },
    ]);
  });

  it('creates an amount rule: whole cents, weekly on a weekday or monthly on a day (the last day in a short month)', async () => {
    const fetch = server({
      '/api/create-accounting-rule': () => ({
        status: 422,
        body: { error: [ACCOUNTING_MSG.companyInactive] },
      }),
    });
    signInAs(ADMIN_2D, { role: '2D Admin' });
    renderApp('/accounting-rules');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Amount Rule' }));
    const d = within(await screen.findByRole('dialog', { name: 'Create Accounting Rule' }));
    await fillCommon(d);
    // Internal: the company's other account; the type change emptied the beneficiary
    await userEvent.click(d.getByRole('radio', { name: 'Internal' }));
    await pickIn(d, 'Beneficiary', /Account 1003/);
    await userEvent.type(field(d, /Amount \(cents\)/), '12.5');
    await pickIn(d, 'Interval', 'Weekly');
    await userEvent.click(d.getByRole('button', { name: 'Create Rule' }));
    expect(d.getByText(ACCOUNTING_MSG.ruleAmountWhole)).toBeTruthy();
    expect(d.getByText(ACCOUNTING_MSG.weekdayRequired)).toBeTruthy();
    await pickIn(d, 'Interval', 'Monthly');
    expect(d.getByText(/A month without that day runs on its last day/)).toBeTruthy();
    await userEvent.type(field(d, /Day of the month/), '32');
    expect(d.getByText(ACCOUNTING_MSG.monthDayRange)).toBeTruthy();
    await userEvent.clear(field(d, /Day of the month/));
    await userEvent.type(field(d, /Day of the month/), '31');
    await userEvent.clear(field(d, /Amount \(cents\)/));
    await userEvent.type(field(d, /Amount \(cents\)/), '2500');
    expect(callsTo(fetch, '/api/create-accounting-rule')).toEqual([]);
    await userEvent.click(d.getByRole('button', { name: 'Create Rule' }));
    expect(await screen.findByText(ACCOUNTING_MSG.companyInactive)).toBeTruthy();
    expect(callsTo(fetch, '/api/create-accounting-rule')).toEqual([
      {
        company_id: 1,
        rule_name: 'Weekly rent',
        beneficiary_id: '1003',
        account_id: '1001',
        reference: 'Rent',
        transfer_type: 'internal_transfer',
        amount: '2500',
        account_type: false,
        interval: '00:00',
        interval_type: 'monthly',
        interval_day: '31',
      },
    ]);
  });

  it('gives a viewer no create buttons, switch or Delete Rule', async () => {
    server();
    signInAs(['User can view accounting transactions rules', 'User can view profile']);
    renderApp('/accounting-rules');
    expect((await screen.findAllByText('Sweep')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Create Percentage Rule' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create Amount Rule' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Active: Rule 1' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Rule 1' })).toBeNull();
  });
});
