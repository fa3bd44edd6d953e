import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../lib/session.ts';
import { renderWithProviders, signInAs, verifyResponse } from '../test-utils.tsx';
import { ListTable, type Column } from './ListTable.tsx';

vi.setConfig({ testTimeout: 20_000 });

type Row = { id: number; name: string; amount: string; status: string; note: string; city: string };
const ROWS: Row[] = [
  { id: 1, name: 'Ada', amount: '€1.00', status: 'Completed', note: 'first', city: 'Oslo' },
  { id: 2, name: 'Bo', amount: '€2.00', status: 'Failed', note: 'second', city: 'Rome' },
];
const COLUMNS: Column<Row>[] = [
  { id: 'name', label: 'Name', pinned: true, card: 'title', cell: (r) => r.name },
  { id: 'note', label: 'Note', cell: (r) => r.note },
  { id: 'city', label: 'City', hidden: true, cell: (r) => r.city },
  { id: 'amount', label: 'Amount', pinned: true, cell: (r) => r.amount },
  { id: 'status', label: 'Status', pinned: true, card: 'status', cell: (r) => r.status },
];

function Table() {
  return (
    <ListTable
      id="people"
      label="People"
      columns={COLUMNS}
      rows={ROWS}
      rowKey={(r) => r.id}
      action={{ label: 'Action', cell: (r) => <button type="button">Open {r.name}</button> }}
      loading={false}
    />
  );
}

const headers = () =>
  within(screen.getByRole('table', { name: 'People' }))
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

/** the row height shows in the cells' size */
const density = () => screen.getByRole('columnheader', { name: 'Name' }).className;

async function openMenu() {
  await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
  return screen.getByRole('dialog', { name: 'Table settings' });
}

/** a phone-sized screen: every max-width query matches (jsdom has no matchMedia of its own) */
function phone(matches: boolean) {
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: matches && query.includes('max-width'),
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}

describe('list table preferences', () => {
  it('shows the default columns, the action last; key columns cannot be hidden', async () => {
    signInAs();
    renderWithProviders(<Table />);
    expect(headers()).toEqual(['Name', 'Note', 'Amount', 'Status', 'Action']);
    const menu = await openMenu();
    expect(within(menu).getByRole('checkbox', { name: 'Name' })).toHaveProperty('disabled', true);
    expect(within(menu).getByRole('checkbox', { name: 'Amount' })).toHaveProperty('disabled', true);
    expect(within(menu).getByRole('checkbox', { name: 'City' })).toHaveProperty('checked', false);
    expect(within(menu).getByRole('checkbox', { name: 'Note' })).toHaveProperty('checked', true);
  });

  it('hides, shows and reorders columns and picks a density, kept for the user after a remount', async () => {
    signInAs();
    const first = renderWithProviders(<Table />);
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('checkbox', { name: 'Note' }));
    await userEvent.click(within(menu).getByRole('checkbox', { name: 'City' }));
    await userEvent.click(within(menu).getByRole('button', { name: 'Move City up' }));
    await userEvent.click(within(menu).getByRole('button', { name: 'Move City up' }));
    await userEvent.click(within(menu).getByRole('radio', { name: 'Comfortable' }));
    await userEvent.keyboard('{Escape}');
    expect(headers()).toEqual(['City', 'Name', 'Amount', 'Status', 'Action']);
    expect(density()).toMatch(/sizeMedium/);
    first.unmount();

    renderWithProviders(<Table />);
    expect(headers()).toEqual(['City', 'Name', 'Amount', 'Status', 'Action']);
    expect(density()).toMatch(/sizeMedium/);
    const menu2 = await openMenu();
    await userEvent.click(within(menu2).getByRole('button', { name: 'Reset to defaults' }));
    await userEvent.keyboard('{Escape}');
    expect(headers()).toEqual(['Name', 'Note', 'Amount', 'Status', 'Action']);
    expect(density()).toMatch(/sizeSmall/);
  });

  it('gives another user on the same browser the defaults', async () => {
    signInAs();
    const first = renderWithProviders(<Table />);
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('checkbox', { name: 'Note' }));
    await userEvent.keyboard('{Escape}');
    expect(headers()).toEqual(['Name', 'Amount', 'Status', 'Action']);
    first.unmount();

    sessionStore.signIn({ ...verifyResponse(), user: { ...verifyResponse().user, id: 2, name: 'Bea' } });
    renderWithProviders(<Table />);
    expect(headers()).toEqual(['Name', 'Note', 'Amount', 'Status', 'Action']);
  });

  it('ignores stored preferences it cannot read', () => {
    signInAs();
    localStorage.setItem('obol.table.1.people', '{not json');
    renderWithProviders(<Table />);
    expect(headers()).toEqual(['Name', 'Note', 'Amount', 'Status', 'Action']);
  });
});

describe('list table on a phone', () => {
  it('shows each row as a card: name and status on top, the chosen columns as lines, the action as a button', () => {
    phone(true);
    signInAs();
    renderWithProviders(<Table />);
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'People' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const ada = cards[0];
    expect(ada.textContent).toContain('Ada');
    expect(ada.textContent).toContain('Completed');
    const terms = within(ada)
      .getAllByRole('term')
      .map((t) => t.textContent);
    expect(terms).toEqual(['Note', 'Amount']);
    expect(
      within(ada)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['first', '€1.00']);
    expect(within(ada).getByRole('button', { name: 'Open Ada' })).toBeTruthy();
  });

  it('keeps the table on a wide screen', () => {
    phone(false);
    signInAs();
    renderWithProviders(<Table />);
    expect(screen.getByRole('table', { name: 'People' })).toBeTruthy();
  });
});
