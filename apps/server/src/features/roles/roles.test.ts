import {
  DEFAULT_ROLE_PERMISSIONS,
  groupPermissions,
  MSG,
  PERMISSION_GROUPS,
  ROLE_MESSAGES,
  ROLES,
  type Permission,
  type RoleName,
} from '@obol/contract';
import { and, desc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { activityLog } from '../../platform/tables.ts';
import { NOBODY_CAN_EDIT_ROLES } from '../users/guard.ts';
import { users } from '../users/tables.ts';
import { permissionsOfRoleNamed } from './service.ts';

let t: TestApp;
const tokens = new Map<string, string>();
const token = async (email: string) => {
  if (!tokens.has(email)) tokens.set(email, await t.signIn(email));
  return tokens.get(email)!;
};
const admin = () => token('admin@obol.example');
const held = (role: RoleName) => permissionsOfRoleNamed(t.deps.db, role);
const setRole = async (role: RoleName, perms: readonly Permission[]) => {
  const r = await t.post('/api/update-permission', { role_name: role, permission_name: perms }, await admin());
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
// every test starts from the seeded matrix
beforeEach(async () => {
  for (const role of ROLES) {
    const now = await held(role);
    if (JSON.stringify(now) !== JSON.stringify(DEFAULT_ROLE_PERMISSIONS[role]))
      await setRole(role, DEFAULT_ROLE_PERMISSIONS[role]);
  }
});

const lastLog = async (action: string) =>
  (
    await t.deps.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, action))
      .orderBy(desc(activityLog.id))
      .limit(1)
  )[0];

describe('POST /api/user-with-count', () => {
  it('gives a card per role with the number of users holding it', async () => {
    const r = await t.post('/api/user-with-count', {}, await admin());
    expect(r.status).toBe(200);
    expect(r.body.data.map((c: { name: string }) => c.name)).toEqual([...ROLES]);
    const all = await t.deps.db.select({ roleId: users.roleId }).from(users);
    expect(r.body.data.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(all.length);
    const card = (name: string) => r.body.data.find((c: { name: string }) => c.name === name).count;
    expect(card('Merchant')).toBe(2);
    expect(card('Brand')).toBe(2);
    expect(card('Finance')).toBe(1);
  });

  it.each([['finance'], ['merchant'], ['brand'], ['supervisor-a']])(
    'answers 403 to %s, who lacks the permission',
    async (who) => {
      const r = await t.post('/api/user-with-count', {}, await token(`${who}@obol.example`));
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: [MSG.forbidden] });
    },
  );

  it('answers 401 without a session', async () => {
    expect((await t.post('/api/user-with-count', {})).status).toBe(401);
  });

  it("counts a merchant's own team only when a merchant holds the permission", async () => {
    await setRole('Merchant', [...DEFAULT_ROLE_PERMISSIONS.Merchant, 'User can view role&permissions']);
    const m = await token('merchant@obol.example');
    const r = await t.post('/api/user-with-count', {}, m);
    expect(r.status).toBe(200);
    const counts = Object.fromEntries(r.body.data.map((c: { name: string; count: number }) => [c.name, c.count]));
    expect(counts).toMatchObject({ Admin: 0, Merchant: 0, Brand: 0, Finance: 1, 'Risk Ops': 1, Reviewer: 1 });
    const admins = await t.post('/api/user-roles', { role: 'Admin' }, m);
    expect(admins.body).toEqual({ total: 0, data: [{ name: 'Admin', users: [] }] });
    // roles are shared by every merchant: a merchant cannot change them
    const edit = await t.post('/api/update-permission', { role_name: 'Finance', permission_name: [] }, m);
    expect(edit.status).toBe(403);
    expect(edit.body.error).toEqual([ROLE_MESSAGES.staffOnly]);
    expect(await held('Finance')).toEqual(DEFAULT_ROLE_PERMISSIONS.Finance);
  });
});

describe('POST /api/role-against-users', () => {
  it("gives the role's permissions grouped by screen, each held or not", async () => {
    const r = await t.post('/api/role-against-users', { role: 'Finance' }, await admin());
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('Finance');
    expect(r.body.data.map((s: { screen_name: string }) => s.screen_name)).toEqual(
      PERMISSION_GROUPS.map((g) => g.screen),
    );
    const tx = r.body.data.find((s: { screen_name: string }) => s.screen_name === 'Transactions');
    expect(tx.permissions).toEqual([
      { permission_name: 'User can view transactions', status: true, is_view: true },
      { permission_name: 'User can search', status: true, is_view: false },
      { permission_name: 'User can export transactions', status: true, is_view: false },
    ]);
    const usersScreen = r.body.data.find((s: { screen_name: string }) => s.screen_name === 'Users');
    expect(usersScreen.permissions.every((p: { status: boolean }) => !p.status)).toBe(true);
  });

  it('names the role field when it is missing or unknown', async () => {
    const a = await admin();
    expect(await t.post('/api/role-against-users', {}, a)).toMatchObject({
      status: 400,
      body: { fields: { role: [MSG.required] } },
    });
    expect(await t.post('/api/role-against-users', { role: 'Emperor' }, a)).toMatchObject({
      status: 400,
      body: { fields: { role: [ROLE_MESSAGES.unknownRole] } },
    });
  });

  it('answers 403 without the permission', async () => {
    expect(
      (await t.post('/api/role-against-users', { role: 'Finance' }, await token('finance@obol.example'))).status,
    ).toBe(403);
  });
});

describe('POST /api/user-roles', () => {
  it('pages the users holding a role, with their merchant', async () => {
    const a = await admin();
    const r = await t.post('/api/user-roles', { role: 'Brand' }, a);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(2);
    expect(r.body.data[0].name).toBe('Brand');
    expect(r.body.data[0].users.map((u: { email: string }) => u.email).sort()).toEqual([
      'brand2@obol.example',
      'brand@obol.example',
    ]);
    for (const u of r.body.data[0].users) expect(u.merchant_name).toEqual(expect.any(String));
    const managers = await t.post('/api/user-roles', { role: 'Manager' }, a);
    expect(managers.body.data[0].users).toEqual([
      { id: expect.any(Number), name: expect.any(String), email: 'manager@obol.example', merchant_name: null },
    ]);
    const p1 = await t.post('/api/user-roles', { role: 'Brand', per_page: 1, page: 1 }, a);
    const p2 = await t.post('/api/user-roles', { role: 'Brand', per_page: 1, page: 2 }, a);
    expect(p1.body.total).toBe(2);
    expect(p1.body.data[0].users).toHaveLength(1);
    expect(p2.body.data[0].users).toHaveLength(1);
    expect(p1.body.data[0].users[0].id).not.toBe(p2.body.data[0].users[0].id);
  });

  it('names each invalid field', async () => {
    const a = await admin();
    expect((await t.post('/api/user-roles', { page: 1 }, a)).body.fields).toEqual({ role: [MSG.required] });
    expect((await t.post('/api/user-roles', { role: 'Brand', page: 0 }, a)).body.fields).toEqual({
      page: ['page must be at least 1'],
    });
    expect((await t.post('/api/user-roles', { role: 'Brand', per_page: 'x' }, a)).body.fields).toEqual({
      per_page: ['per_page must be a number'],
    });
  });
});

describe('POST /api/update-permission', () => {
  it('replaces the role’s permissions and records before and after', async () => {
    const wanted: Permission[] = [...groupPermissions('Reports'), 'User can view profile'];
    const r = await t.post('/api/update-permission', { role_name: 'Finance', permission_name: wanted }, await admin());
    expect(r.status).toBe(200);
    expect(r.body.message).toEqual([MSG.roleUpdated]);
    expect(await held('Finance')).toEqual(wanted);
    const tx = r.body.data.find((s: { screen_name: string }) => s.screen_name === 'Transactions');
    expect(tx.permissions.every((p: { status: boolean }) => !p.status)).toBe(true);
    const log = await lastLog('roles.update-permission');
    expect(log).toMatchObject({
      outcome: 'success',
      targetType: 'role',
      targetId: 'Finance',
      userEmail: 'admin@obol.example',
      before: { permissions: [...DEFAULT_ROLE_PERMISSIONS.Finance] },
      after: { permissions: wanted },
    });
  });

  const refusals: [string, unknown, number, Record<string, string[]> | undefined, string[]][] = [
    ['no role', { permission_name: [] }, 400, { role_name: [MSG.required] }, [MSG.required]],
    [
      'an unknown role',
      { role_name: 'Emperor', permission_name: [] },
      400,
      { role_name: [ROLE_MESSAGES.unknownRole] },
      [ROLE_MESSAGES.unknownRole],
    ],
    ['no permission list', { role_name: 'Finance' }, 400, { permission_name: [MSG.required] }, [MSG.required]],
    [
      'an unknown permission',
      { role_name: 'Finance', permission_name: ['User can view profile', 'User can fly'] },
      400,
      { permission_name: ["Unknown permission 'User can fly'"] },
      ["Unknown permission 'User can fly'"],
    ],
    [
      'a permission without its screen’s view',
      { role_name: 'Finance', permission_name: ['User can search', 'User can view profile'] },
      400,
      { permission_name: ["'User can search' needs 'User can view transactions'"] },
      ["'User can search' needs 'User can view transactions'"],
    ],
    [
      'an Admin role without the role editor permission',
      { role_name: 'Admin', permission_name: ['User can view profile'] },
      422,
      { permission_name: [ROLE_MESSAGES.adminKeepsEditor] },
      [ROLE_MESSAGES.adminKeepsEditor],
    ],
    [
      'a Brand given users',
      { role_name: 'Brand', permission_name: [...DEFAULT_ROLE_PERMISSIONS.Brand, 'User can view users'] },
      422,
      { permission_name: [ROLE_MESSAGES.brandNever('User can view users')] },
      [ROLE_MESSAGES.brandNever('User can view users')],
    ],
  ];
  it.each(refusals)('refuses %s, changing nothing', async (_what, body, status, fields, error) => {
    const before = await Promise.all(ROLES.map(held));
    const r = await t.post('/api/update-permission', body, await admin());
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ error, ...(fields ? { fields } : {}) });
    expect(await Promise.all(ROLES.map(held))).toEqual(before);
    expect(await lastLog('roles.update-permission')).toMatchObject({ outcome: 'failure', statusCode: status });
  });

  it('answers 403 without the permission, changing nothing', async () => {
    const r = await t.post(
      '/api/update-permission',
      { role_name: 'Finance', permission_name: [] },
      await token('finance@obol.example'),
    );
    expect(r.status).toBe(403);
    expect(await held('Finance')).toEqual(DEFAULT_ROLE_PERMISSIONS.Finance);
  });

  it('refuses an edit that leaves nobody able to edit roles (422), changing nothing', async () => {
    // only the Manager is left to edit roles once the Admin is inactive
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.email, 'admin@obol.example'));
    try {
      const manager = await token('manager@obol.example');
      const without = DEFAULT_ROLE_PERMISSIONS.Manager.filter((p) => p !== 'User can view role&permissions');
      const r = await t.post('/api/update-permission', { role_name: 'Manager', permission_name: without }, manager);
      expect(r.status).toBe(422);
      expect(r.body.error).toEqual([NOBODY_CAN_EDIT_ROLES]);
      expect(await held('Manager')).toEqual(DEFAULT_ROLE_PERMISSIONS.Manager);
      // with the Admin active again, the same edit is allowed
      await t.deps.db.update(users).set({ isActive: true }).where(eq(users.email, 'admin@obol.example'));
      tokens.delete('admin@obol.example');
      const ok = await t.post('/api/update-permission', { role_name: 'Manager', permission_name: without }, manager);
      expect(ok.status).toBe(200);
      expect(await held('Manager')).toEqual(without);
    } finally {
      await t.deps.db.update(users).set({ isActive: true }).where(eq(users.email, 'admin@obol.example'));
    }
  });

  it("reaches a signed-in user's next request", async () => {
    const finance = await token('finance@obol.example');
    const perms = async () => (await t.post('/api/auth-permission', {}, finance)).body.data.permission as string[];
    expect(await perms()).toContain('User can view transactions');
    expect((await t.post('/api/payout-transactions', {}, finance)).status).toBe(200);

    await setRole(
      'Finance',
      DEFAULT_ROLE_PERMISSIONS.Finance.filter((p) => !groupPermissions('Transactions').includes(p)),
    );
    expect(await perms()).not.toContain('User can view transactions');
    expect((await t.post('/api/payout-transactions', {}, finance)).status).toBe(403);

    await setRole('Finance', DEFAULT_ROLE_PERMISSIONS.Finance);
    expect(await perms()).toContain('User can view transactions');
    expect((await t.post('/api/payout-transactions', {}, finance)).status).toBe(200);
  });

  it('runs concurrent edits of one role one after the other, never a mix', async () => {
    const a = await admin();
    const start: Permission[] = ['User can view profile'];
    const sets: Permission[][] = [
      [...groupPermissions('Transactions'), 'User can view profile'],
      [...groupPermissions('Reports'), ...groupPermissions('Balance')],
      [...groupPermissions('Transactions'), ...groupPermissions('Reports')],
      [...groupPermissions('Payments'), ...groupPermissions('Pay-in')],
    ];
    const key = (perms: unknown) => JSON.stringify(perms);
    for (let round = 0; round < 5; round++) {
      await setRole('Payment Ops', start);
      const from = (await lastLog('roles.update-permission')).id;
      const answers = await Promise.all(
        sets.map((s) => t.post('/api/update-permission', { role_name: 'Payment Ops', permission_name: s }, a)),
      );
      expect(answers.map((r) => r.status)).toEqual(sets.map(() => 200));
      const now = await held('Payment Ops');
      expect(sets.map(key)).toContain(key(now));
      // serialised: each edit started from the state the one before it left, a single path from start to now
      const logs = await t.deps.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.action, 'roles.update-permission'), gt(activityLog.id, from)));
      expect(logs).toHaveLength(sets.length);
      const next = new Map(logs.map((l) => [key(l.before), key(l.after)]));
      expect(next.size, 'two edits started from the same state').toBe(sets.length);
      let state = key({ permissions: start });
      for (let i = 0; i < sets.length; i++) {
        expect(next.has(state)).toBe(true);
        state = next.get(state)!;
      }
      expect(state).toBe(key({ permissions: now }));
    }
  });
});
