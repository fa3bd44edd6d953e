import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DateField, dateText, dateTextError } from './DateField.tsx';

function Held({ start = '' }: { start?: string }) {
  const [v, setV] = useState(start);
  return <DateField label="Start Date" value={v} onChange={setV} max="2026-11-29" />;
}

describe('date field', () => {
  it('writes what is typed as YYYY-MM-DD: digits only, hyphens after the year and the month', () => {
    expect(dateText('2026')).toBe('2026');
    expect(dateText('20261')).toBe('2026-1');
    expect(dateText('20261105')).toBe('2026-11-05');
    expect(dateText('2026-11-05')).toBe('2026-11-05');
    expect(dateText('11/05/2026x')).toBe('1105-20-26');
    expect(dateText('2026110599')).toBe('2026-11-05');
    expect([dateTextError(''), dateTextError('2026-02-28')]).toEqual([undefined, undefined]);
    expect(dateTextError('2026-02-30')).toBe('Date must be a valid date (YYYY-MM-DD)');
  });

  it('is entered and shown YYYY-MM-DD, says how to write a date, and takes the calendar’s choice', async () => {
    render(<Held />);
    const input = screen.getByLabelText('Start Date') as HTMLInputElement;
    expect(input.getAttribute('placeholder')).toBe('YYYY-MM-DD');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    await userEvent.type(input, '202611');
    expect(input.value).toBe('2026-11');
    // half typed: no message until the field is left
    expect(screen.queryByText('Date must be a valid date (YYYY-MM-DD)')).toBeNull();
    await userEvent.tab();
    expect(screen.getByText('Date must be a valid date (YYYY-MM-DD)')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(input, '05');
    expect(input.value).toBe('2026-11-05');
    expect(input.getAttribute('aria-invalid')).toBe('false');

    // the calendar button opens the browser's picker; its choice comes back as YYYY-MM-DD
    const choose = screen.getByRole('button', { name: 'Choose Start Date' });
    await userEvent.click(choose);
    const picker = document.querySelector('input[type="date"]') as HTMLInputElement;
    expect(picker.getAttribute('aria-hidden')).toBe('true');
    expect(picker.getAttribute('max')).toBe('2026-11-29');
    fireEvent.change(picker, { target: { value: '2026-10-31' } });
    expect(input.value).toBe('2026-10-31');
  });
});
