import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusChip, StatusWithReason, toneOf } from './StatusChip.tsx';

describe('status chip', () => {
  it('colours every screen’s status words by outcome: success, failure, waiting, in progress, neutral', () => {
    const tones = {
      green: ['Completed', 'Active', 'Verified', 'Enabled', 'Succeeded', 'Success', 'Approved', 'Rewarded'],
      red: ['Failed', 'Declined', 'Rejected', 'Failing'],
      amber: ['Pending', 'Initiated', 'Invited', 'Pending approval', 'Not verified', 'Refused'],
      teal: ['Processing'],
      grey: ['Inactive', 'Expired', 'Disabled', 'Not Rewarded', 'Merchant'],
    };
    for (const [tone, words] of Object.entries(tones)) for (const w of words) expect([w, toneOf(w)]).toEqual([w, tone]);
  });

  it('is one small filled chip; a count keeps its status tone, a named tone wins over the word', () => {
    render(
      <>
        <StatusChip status="Executable" tone="green" label="Executable: 3" />
        <StatusChip status="Completed" />
        <StatusWithReason status="Rejected" tone="red" reason="Too late" />
      </>,
    );
    const count = screen.getByText('Executable: 3').closest('[data-tone]')!;
    expect(count.getAttribute('data-tone')).toBe('green');
    const done = screen.getByText('Completed').closest('.MuiChip-root')!;
    expect(done.className).toMatch(/MuiChip-sizeSmall/);
    expect(done.className).toMatch(/MuiChip-filled/);
    expect(screen.getByText('Rejected').closest('[data-tone]')!.getAttribute('data-tone')).toBe('red');
    expect(screen.getByRole('img', { name: 'Reason: Too late' })).toBeTruthy();
  });
});
