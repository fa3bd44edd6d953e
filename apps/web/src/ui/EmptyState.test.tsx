import { MSG } from '@obol/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pathname, renderWithProviders, signInAs } from '../test-utils.tsx';
import { useLinkAction } from './EmptyState.tsx';
import { ListTable, type Column, type EmptyState } from './ListTable.tsx';

vi.setConfig({ testTimeout: 20_000 });

type Row = { id: number; name: string };
const COLUMNS: Column<Row>[] = [{ id: 'name', label: 'Name', pinned: true, card: 'title', cell: (r) => r.name }];

function Empty({ empty }: { empty?: EmptyState }) {
  return (
    <ListTable
      id="empty"
      label="People"
      columns={COLUMNS}
      rows={[]}
      rowKey={(r) => r.id}
      loading={false}
      empty={empty}
    />
  );
}

/** a list whose create action is a link to the Payments screen, shown only to a user who may open it */
function WithLink() {
  const create = useLinkAction('/payments', 'Create Payment');
  return <Empty empty={{ create }} />;
}

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

describe('the empty state of a list', () => {
  it('says No Record Found and nothing more without a next action', () => {
    signInAs();
    renderWithProviders(<Empty />);
    const state = within(screen.getByRole('table', { name: 'People' })).getByText(MSG.noRecord);
    expect(state).toBeTruthy();
    expect(screen.queryByRole('button', { name: /clear filters/i })).toBeNull();
  });

  it('offers Clear filters while the list is narrowed, in place of the create action', async () => {
    signInAs();
    const clear = vi.fn();
    const create = vi.fn();
    renderWithProviders(<Empty empty={{ clear, create: [{ label: 'Invite user', onClick: create }] }} />);
    expect(screen.getByText(MSG.noRecord)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(clear).toHaveBeenCalledOnce();
  });

  it("offers the page's create actions when nothing is filtered, with its own words", async () => {
    signInAs();
    const percentage = vi.fn();
    renderWithProviders(
      <Empty
        empty={{
          text: 'No rules yet.',
          create: [
            { label: 'Create Percentage Rule', onClick: percentage },
            { label: 'Create Amount Rule', onClick: () => {} },
          ],
        }}
      />,
    );
    expect(screen.getByText('No rules yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create Amount Rule' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Create Percentage Rule' }));
    expect(percentage).toHaveBeenCalledOnce();
  });

  it('links to another screen for a user with its permission', async () => {
    signInAs(['User can view payments']);
    renderWithProviders(<WithLink />);
    await userEvent.click(screen.getByRole('link', { name: 'Create Payment' }));
    expect(pathname()).toBe('/payments');
  });

  it('offers no link to a screen the user may not open', () => {
    signInAs(['User can view transactions']);
    renderWithProviders(<WithLink />);
    expect(screen.getByText(MSG.noRecord)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Create Payment' })).toBeNull();
  });

  it('offers the same on a phone, where the rows are cards', async () => {
    phone(true);
    signInAs();
    const clear = vi.fn();
    renderWithProviders(<Empty empty={{ clear }} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText(MSG.noRecord)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(clear).toHaveBeenCalledOnce();
  });
});
