import { describe, expect, it } from 'vitest';
import { ACTIVITY_LABELS, activityLabel } from './activity.ts';
import { OPERATIONS } from './operations.ts';

describe('activity labels', () => {
  it('name every action an operation records, and nothing else', () => {
    const recorded = new Set(OPERATIONS.flatMap((op) => (op.audit ? [op.audit] : [])));
    expect([...recorded].filter((a) => !(a in ACTIVITY_LABELS))).toEqual([]);
    expect(Object.keys(ACTIVITY_LABELS).filter((a) => !recorded.has(a))).toEqual([]);
  });

  it('read a refusal, a failure and an unknown action', () => {
    expect(activityLabel('denied POST /api/users')).toBe('Refused: POST /api/users');
    expect(activityLabel('users.invite', 'failure')).toBe('Invited a user (failed)');
    expect(activityLabel('fee.update-fee')).toBe('Fee: update fee');
  });
});
