import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RowActions, type RowActionItem } from './RowActions.tsx';

const item = (text: string, extra: Partial<RowActionItem> = {}): RowActionItem => ({
  text,
  label: `${text} Acme`,
  icon: <span />,
  onClick: vi.fn(),
  ...extra,
});

describe('row actions', () => {
  it('keeps one or two actions as buttons named for the row', () => {
    render(<RowActions name="Acme" items={[item('Edit'), item('Share')]} />);
    expect(screen.getByRole('button', { name: 'Edit Acme' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Share Acme' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Actions/ })).toBeNull();
  });

  it('puts three or more in a labelled Actions menu; a disabled one says why and does nothing', async () => {
    const edit = item('Edit');
    const resend = item('Resend mail', { disabledReason: 'Already signed up' });
    render(<RowActions name="Acme" items={[edit, item('Add brands'), resend]} />);
    const button = screen.getByRole('button', { name: 'Actions for Acme' });
    // the visible text is part of the name (axe: label-content-name-mismatch)
    expect(button.textContent).toBe('Actions');
    expect(screen.queryByRole('button', { name: 'Edit Acme' })).toBeNull();

    await userEvent.click(button);
    const menu = screen.getByRole('menu', { name: 'Actions for Acme' });
    expect(menu).toBeTruthy();
    const disabled = screen.getByRole('menuitem', { name: /Resend mail/ });
    expect(disabled.getAttribute('aria-disabled')).toBe('true');
    expect(disabled.textContent).toContain('Already signed up');
    await userEvent.click(disabled);
    expect(resend.onClick).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    // run once the menu has closed
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(edit.onClick).toHaveBeenCalledOnce());
  });
});
