import { USERS_MSG } from '@obol/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog, permissions, rolePermissions, roles, sessions } from '../../schema.ts';
import { DEMO_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { NOBODY_CAN_EDIT_ROLES, ROLE_EDITOR_PERMISSION } from './guard.ts';
import { users } from './tables.ts';

let t: TestApp;
const tokens = new Map<string, string>();
const token = async (email: string) => {
  if (!tokens.has(email)) tokens.set(email, await t.signIn(email));
  return tokens.get(email)!;
};
const idOf = async (email: string) =>
  (await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
const rowOf = async (email: string) => (await t.deps.db.select().from(users).where(eq(users.email, email)))[0];
/** What an administrator can change of every user (signing in changes last_login, which is not ours to check). */
const snapshot = async () =>
  JSON.stringify(
    await t.deps.db
      .select({
        id: users.id,
        roleId: users.roleId,
        isActive: users.isActive,
        deletedAt: users.deletedAt,
        parentId: users.parentId,
        updatedAt: users.updatedAt,
      })
      .from(users)
      .orderBy(users.id),
  );
const lastLog = async (action: string) =>
  (
    await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, action), eq(activityLog.outcome, 'success')))
      .orderBy(desc(activityLog.id))
  )[0];

const status = (id: number, s: 0 | 1, tok: string) =>
  t.post('/api/change-user-status', { id, status: s, level_type: 'User' }, tok);
const role = (id: number, name: string, tok: string) => t.post('/api/update-role', { id, role_name: name }, tok);
const del = (id: number, tok: string) => t.post('/api/delete-user', { id }, tok);

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/change-user-status', () => {
  it('deactivates a user, whose session ends at once, and activates it again; before and after in the log', async () => {
    const admin = await token('admin@obol.example');
    const victim = await t.signIn('payment-ops@obol.example');
    expect((await t.post('/api/auth-permission', {}, victim)).status).toBe(200);
    const id = await idOf('payment-ops@obol.example');

    const off = await status(id, 0, admin);
    expect(off).toMatchObject({ status: 201, body: { message: [USERS_MSG.statusUpdated] } });
    expect((await t.post('/api/auth-permission', {}, victim)).status).toBe(401);
    const open = await t.deps.db.select().from(sessions).where(eq(sessions.userId, id));
    expect(open.every((s) => s.revokedAt !== null)).toBe(true);
    expect(
      (await t.post('/api/login', { email: 'payment-ops@obol.example', password: DEMO_PASSWORD, auth_type: 'email' }))
        .status,
    ).toBe(403);
    const list = await t.post('/api/users', { search: 'payment-ops@' }, admin);
    expect(list.body.users.data[0].is_active).toBe('0');
    expect(list.body.inactive).toBe(1);
    const log = await lastLog('users.change-status');
    expect(log).toMatchObject({ outcome: 'success', targetType: 'user', targetId: String(id) });
    expect(log.before).toMatchObject({ is_active: true });
    expect(log.after).toMatchObject({ is_active: false });

    expect((await status(id, 1, admin)).status).toBe(201);
    expect((await rowOf('payment-ops@obol.example')).isActive).toBe(true);
  });

  it('refuses an unverified user, oneself, and a bad status with the field named, changing nothing', async () => {
    const admin = await token('admin@obol.example');
    const inv = await t.post(
      '/api/invite-user',
      { name: 'New', email: 'new@obol.example', rolename: 'Accountant' },
      admin,
    );
    const before = await snapshot();
    expect(await status(inv.body.id, 0, admin)).toMatchObject({
      status: 422,
      body: { error: [USERS_MSG.notVerified] },
    });
    expect(await status(await idOf('admin@obol.example'), 0, admin)).toMatchObject({
      status: 422,
      body: { error: [USERS_MSG.notSelf] },
    });
    const bad = await t.post('/api/change-user-status', { id: inv.body.id, status: 2, level_type: 'Brand' }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ status: ['status must be 0 or 1'], level_type: ['level_type must be User'] });
    const missing = await t.post('/api/change-user-status', {}, admin);
    expect(Object.keys(missing.body.fields).sort()).toEqual(['id', 'level_type', 'status']);
    expect(await snapshot()).toBe(before);
  });

  it("answers 404 for another merchant's user, 403 without the permission or on an Admin by a non-Admin", async () => {
    const reviewer = await idOf('reviewer@obol.example');
    const before = await snapshot();
    expect((await status(reviewer, 0, await token('merchant2@obol.example'))).status).toBe(404);
    expect((await status(await idOf('brand2@obol.example'), 0, await token('merchant2@obol.example'))).status).toBe(
      404,
    );
    expect((await status(reviewer, 0, await token('supervisor-a@obol.example'))).status).toBe(403);
    expect((await status(reviewer, 0, await token('brand@obol.example'))).status).toBe(403);
    const onAdmin = await status(await idOf('admin@obol.example'), 0, await token('manager@obol.example'));
    expect(onAdmin).toMatchObject({ status: 403, body: { error: [USERS_MSG.onlyAdminTouchesAdmin] } });
    expect(await snapshot()).toBe(before);
    // the merchant may switch its own team
    const merchant = await token('merchant@obol.example');
    expect((await status(reviewer, 0, merchant)).status).toBe(201);
    expect((await status(reviewer, 1, merchant)).status).toBe(201);
  });
});

describe('POST /api/update-role', () => {
  it('moves a user within its set: merchant-side to merchant-side, staff to staff', async () => {
    const admin = await token('admin@obol.example');
    const reviewer = await idOf('reviewer@obol.example');
    const r = await role(reviewer, 'Finance', await token('merchant@obol.example'));
    expect(r).toMatchObject({ status: 201, body: { message: [USERS_MSG.userUpdated] } });
    expect((await t.post('/api/get-user-detail', { id: reviewer }, admin)).body.user.roles).toEqual([
      { name: 'Finance' },
    ]);
    const log = await lastLog('users.update-role');
    expect(log.before).toMatchObject({ role: 'Reviewer' });
    expect(log.after).toMatchObject({ role: 'Finance' });
    expect((await role(reviewer, 'Reviewer', admin)).status).toBe(201);
    const sup = await idOf('supervisor-b@obol.example');
    expect((await role(sup, 'Accountant', admin)).status).toBe(201);
    expect((await role(sup, 'Supervisor B', admin)).status).toBe(201);
  });

  it('refuses another set, a merchant or brand, oneself, an unknown role, another tenant and no permission', async () => {
    const admin = await token('admin@obol.example');
    const reviewer = await idOf('reviewer@obol.example');
    const before = await snapshot();
    expect(await role(reviewer, 'Manager', admin)).toMatchObject({
      status: 422,
      body: { fields: { role_name: [USERS_MSG.roleNotAllowed] } },
    });
    expect(await role(await idOf('accountant@obol.example'), 'Reviewer', admin)).toMatchObject({ status: 422 });
    expect(await role(await idOf('accountant@obol.example'), 'Admin', admin)).toMatchObject({ status: 422 });
    expect(await role(await idOf('merchant2@obol.example'), 'Manager', admin)).toMatchObject({
      status: 422,
      body: { error: [USERS_MSG.roleNotChangeable] },
    });
    expect(await role(await idOf('admin@obol.example'), 'Manager', admin)).toMatchObject({
      status: 422,
      body: { error: [USERS_MSG.notSelf] },
    });
    expect(await role(reviewer, 'Boss', admin)).toMatchObject({
      status: 400,
      body: { fields: { role_name: ['role_name must be a known role'] } },
    });
    expect((await role(reviewer, 'Finance', await token('merchant2@obol.example'))).status).toBe(404);
    expect((await role(reviewer, 'Finance', await token('accountant@obol.example'))).status).toBe(403);
    expect((await role(reviewer, 'Finance', await token('finance@obol.example'))).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});

describe('POST /api/delete-user', () => {
  it('hides the user everywhere, ends its sessions, refuses its sign-in and frees its e-mail', async () => {
    const admin = await token('admin@obol.example');
    const inv = await t.post(
      '/api/invite-user',
      { name: 'Del', email: 'del@obol.example', rolename: 'Accountant' },
      admin,
    );
    const victim = await t.signIn('accountant@obol.example');
    const id = await idOf('accountant@obol.example');
    const r = await del(id, admin);
    expect(r).toMatchObject({ status: 200, body: { message: [USERS_MSG.userDeleted] } });
    expect((await t.post('/api/auth-permission', {}, victim)).status).toBe(401);
    expect((await t.post('/api/get-user-detail', { id }, admin)).status).toBe(404);
    expect((await t.post('/api/users', { search: 'accountant@' }, admin)).body.users.total).toBe(0);
    expect(
      (await t.post('/api/login', { email: 'accountant@obol.example', password: DEMO_PASSWORD, auth_type: 'email' }))
        .status,
    ).toBe(401);
    expect((await del(id, admin)).status).toBe(404);
    const log = await lastLog('users.delete');
    expect(log.before).toMatchObject({ deleted: false, email: 'accountant@obol.example' });
    expect(log.after).toMatchObject({ deleted: true });
    // the row stays for the records that name it; the e-mail can be invited again
    expect((await rowOf('accountant@obol.example')).deletedAt).not.toBeNull();
    const again = await t.post(
      '/api/invite-user',
      { name: 'Back', email: 'accountant@obol.example', rolename: 'Accountant' },
      admin,
    );
    expect(again.status).toBe(201);
    // an invited user not yet verified may be deleted too
    expect((await del(inv.body.id, admin)).status).toBe(200);
  });

  it("refuses oneself, a merchant with users left, another tenant's user and no permission", async () => {
    const admin = await token('admin@obol.example');
    const before = await snapshot();
    expect(await del(await idOf('admin@obol.example'), admin)).toMatchObject({
      status: 422,
      body: { error: [USERS_MSG.notSelf] },
    });
    expect(await del(await idOf('merchant@obol.example'), admin)).toMatchObject({
      status: 422,
      body: { error: [USERS_MSG.hasUsers] },
    });
    expect((await del(await idOf('finance@obol.example'), await token('merchant2@obol.example'))).status).toBe(404);
    expect((await del(await idOf('finance@obol.example'), await token('supervisor-a@obol.example'))).status).toBe(403);
    expect((await del(await idOf('admin@obol.example'), await token('manager@obol.example'))).status).toBe(403);
    expect((await del(Number.MAX_SAFE_INTEGER, admin)).status).toBe(404);
    expect(await snapshot()).toBe(before);
  });
});

describe('nobody able to edit roles', () => {
  it('refuses (422) a deactivation, deletion or role change that would leave no active role editor', async () => {
    // only the Manager edits roles while the Admin role lacks the permission
    const [perm] = await t.deps.db.select().from(permissions).where(eq(permissions.name, ROLE_EDITOR_PERMISSION));
    const [adminRole] = await t.deps.db.select().from(roles).where(eq(roles.name, 'Admin'));
    const admin = await token('admin@obol.example');
    await t.deps.db
      .delete(rolePermissions)
      .where(and(eq(rolePermissions.roleId, adminRole.id), eq(rolePermissions.permissionId, perm.id)));
    try {
      const manager = await idOf('manager@obol.example');
      const before = await snapshot();
      for (const r of [
        await status(manager, 0, admin),
        await del(manager, admin),
        await role(manager, 'Accountant', admin),
      ])
        expect(r).toMatchObject({ status: 422, body: { error: [NOBODY_CAN_EDIT_ROLES] } });
      expect(await snapshot()).toBe(before);
    } finally {
      await t.deps.db.insert(rolePermissions).values({ roleId: adminRole.id, permissionId: perm.id });
    }
  });
});
