import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_PERMISSIONS } from './roles.ts';
import {
  BRAND_NEVER,
  permissionSetIssues,
  roleMayHold,
  roleScreens,
  togglePermission,
  updatePermissionRequest,
} from './rolesAdmin.ts';

describe('the role editor rule', () => {
  it('unticking a view permission clears its screen; ticking adds one', () => {
    const set = togglePermission(
      ['User can view profile', 'User can view transactions', 'User can search', 'User can export transactions'],
      'User can view transactions',
      false,
    );
    expect(set).toEqual(['User can view profile']);
    expect(togglePermission(set, 'User can view transactions', true)).toEqual([
      'User can view transactions',
      'User can view profile',
    ]);
    expect(togglePermission(['User can view transactions', 'User can search'], 'User can search', false)).toEqual([
      'User can view transactions',
    ]);
  });

  it('names every permission held without its view', () => {
    expect(permissionSetIssues(['User can search', 'User can view balance'])).toEqual([
      "'User can search' needs 'User can view transactions'",
      "'User can view balance' needs 'User can view balance screen'",
    ]);
    expect(permissionSetIssues(['User can view transactions', 'User can search'])).toEqual([]);
  });

  it('holds for every seeded role', () => {
    for (const [role, perms] of Object.entries(DEFAULT_ROLE_PERMISSIONS)) {
      expect(permissionSetIssues(perms), role).toEqual([]);
      expect(
        perms.filter((p) => !roleMayHold(role as never, p)),
        role,
      ).toEqual([]);
    }
    expect(BRAND_NEVER).toContain('User can view role&permissions');
    expect(BRAND_NEVER).toContain('User can view companies');
  });

  it('shows every screen with each permission held or not', () => {
    const screens = roleScreens(['User can view transactions']);
    const tx = screens.find((s) => s.screen_name === 'Transactions')!;
    expect(tx.permissions).toEqual([
      { permission_name: 'User can view transactions', status: true, is_view: true },
      { permission_name: 'User can search', status: false, is_view: false },
      { permission_name: 'User can export transactions', status: false, is_view: false },
    ]);
  });

  it('reads the request in group order, once each', () => {
    const r = updatePermissionRequest.parse({
      role_name: 'Finance',
      permission_name: ['User can search', 'User can view transactions', 'User can search'],
    });
    expect(r.permission_name).toEqual(['User can view transactions', 'User can search']);
    const bad = updatePermissionRequest.safeParse({ role_name: 'Finance', permission_name: ['Nope'] });
    expect(bad.success).toBe(false);
  });
});
