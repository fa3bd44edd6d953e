import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, PERMISSION_LABELS, permissionLabel } from './permissions.ts';

describe('permission labels', () => {
  it('names every permission once, in plain words distinct from each other and from the spec string', () => {
    expect(Object.keys(PERMISSION_LABELS).sort()).toEqual([...ALL_PERMISSIONS].sort());
    const labels = ALL_PERMISSIONS.map(permissionLabel);
    expect(new Set(labels).size).toBe(labels.length);
    for (const p of ALL_PERMISSIONS) {
      expect(permissionLabel(p)).not.toBe(p);
      expect(permissionLabel(p)).not.toMatch(/^User can|&|deacativate|can able/);
    }
  });
});
