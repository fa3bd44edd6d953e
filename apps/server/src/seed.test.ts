import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS, PERMISSION_GROUPS, ROLES } from '@obol/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOfRole } from './features/roles/repo.ts';
import { journalEntries, permissions, rolePermissions, roles, users } from './platform/schema.ts';
import type { Database } from './platform/db.ts';
import { DEMO_USERS, seedDemo, syncReferenceData } from './seed.ts';
import { createTestDatabase } from './test/harness.ts';

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  await syncReferenceData(database.db);
  expect(await seedDemo(database.db, 'Test@pass1')).toBe(true);
});
afterAll(async () => drop?.());

const counts = async () => {
  const db = database.db;
  const [p] = await db.select({ n: count() }).from(permissions);
  const [r] = await db.select({ n: count() }).from(roles);
  const [u] = await db.select({ n: count() }).from(users);
  const [l] = await db.select({ n: count() }).from(rolePermissions);
  const [e] = await db.select({ n: count() }).from(journalEntries);
  return { p: p.n, r: r.n, u: u.n, l: l.n, e: e.n };
};

describe('demo data', () => {
  it('has every permission, spelled exactly, with its screen and view flag', async () => {
    const rows = await database.db.select().from(permissions);
    expect(rows.map((r) => r.name).sort()).toEqual([...ALL_PERMISSIONS].sort());
    for (const g of PERMISSION_GROUPS) {
      g.permissions.forEach((name, i) => {
        const row = rows.find((r) => r.name === name)!;
        expect(row.screen).toBe(g.screen);
        expect(row.isView).toBe(i === 0);
      });
    }
    expect(rows.some((r) => r.name === 'User can activate or deacativate a user')).toBe(true);
  });

  it('gives each of the 12 roles exactly its default permissions', async () => {
    for (const name of ROLES) {
      const [role] = await database.db.select().from(roles).where(eq(roles.name, name));
      expect((await permissionsOfRole(database.db, role.id)).sort(), name).toEqual(
        [...DEFAULT_ROLE_PERMISSIONS[name]].sort(),
      );
    }
  });

  it('has one user per role, the merchant-side ones and the brand under the merchant, plus a second merchant and brand', async () => {
    const all = await database.db.select({ email: users.email, parentId: users.parentId, id: users.id }).from(users);
    expect(all.map((u) => u.email).sort()).toEqual(DEMO_USERS.map((u) => u.email).sort());
    const merchant = all.find((u) => u.email === 'merchant@obol.example')!;
    for (const e of ['risk-ops', 'payment-ops', 'finance', 'reviewer', 'brand'])
      expect(all.find((u) => u.email === `${e}@obol.example`)!.parentId).toBe(merchant.id);
    const m2 = all.find((u) => u.email === 'merchant2@obol.example')!;
    expect(all.find((u) => u.email === 'brand2@obol.example')!.parentId).toBe(m2.id);
    expect(all.find((u) => u.email === 'admin@obol.example')!.parentId).toBeNull();
  });

  it('seeds nothing twice and leaves an edited role matrix alone', async () => {
    const [brand] = await database.db.select().from(roles).where(eq(roles.name, 'Brand'));
    await database.db.delete(rolePermissions).where(eq(rolePermissions.roleId, brand.id));
    const before = await counts();
    await syncReferenceData(database.db);
    expect(await seedDemo(database.db, 'Test@pass1')).toBe(false);
    expect(await counts()).toEqual(before);
    expect(await permissionsOfRole(database.db, brand.id)).toEqual([]);
  });
});
