import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS, PERMISSION_GROUPS, ROLES, roleSlug } from '@obol/contract';
import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { permissionsOfRole } from './features/roles/repo.ts';
import { accounts, journalEntries, permissions, postings, rolePermissions, roles, users } from './schema.ts';
import type { Database } from './platform/db.ts';
import { DEMO_USERS, seedDemo, syncReferenceData } from './seed.ts';
import { withTestDatabase } from './test/database.ts';

let database: Database;
withTestDatabase(async (made) => {
  database = made;
  await syncReferenceData(database.db);
  expect(await seedDemo(database.db, 'Test@pass1')).toBe(true);
});

const counts = async () => {
  const db = database.db;
  const n = async (table: PgTable) => (await db.select({ n: count() }).from(table))[0].n;
  return {
    permissions: await n(permissions),
    roles: await n(roles),
    users: await n(users),
    rolePermissions: await n(rolePermissions),
    accounts: await n(accounts),
    journalEntries: await n(journalEntries),
    postings: await n(postings),
  };
};

describe('demo data', () => {
  it('has every permission, spelled exactly, with its screen and view flag', async () => {
    const rows = await database.db.select().from(permissions);
    expect(rows.map((r) => r.name).sort()).toEqual([...ALL_PERMISSIONS].sort());
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
    for (const g of PERMISSION_GROUPS) {
      g.permissions.forEach((name, i) => {
        const row = rows.find((r) => r.name === name)!;
        expect(row.screen, name).toBe(g.screen);
        expect(row.isView, name).toBe(i === 0);
      });
    }
    expect(rows.some((r) => r.name === 'User can activate or deacativate a user')).toBe(true);
    // the order of the groups is kept
    const ordered = [...rows].sort((a, b) => a.position - b.position).map((r) => r.name);
    expect(ordered).toEqual([...ALL_PERMISSIONS]);
  });

  it('has exactly the 12 roles, each with exactly its default permissions', async () => {
    const all = await database.db.select().from(roles);
    expect(all.map((r) => r.name).sort()).toEqual([...ROLES].sort());
    for (const name of ROLES) {
      const role = all.find((r) => r.name === name)!;
      const held = await permissionsOfRole(database.db, role.id);
      expect([...held].sort(), name).toEqual([...DEFAULT_ROLE_PERMISSIONS[name]].sort());
      expect(new Set(held).size, name).toBe(held.length);
    }
  });

  it('has one user per role, the merchant-side ones and the brand under the merchant, plus a second merchant and brand', async () => {
    const all = await database.db
      .select({
        email: users.email,
        parentId: users.parentId,
        id: users.id,
        role: roles.name,
        hash: users.passwordHash,
      })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId));
    expect(all.map((u) => u.email).sort()).toEqual(DEMO_USERS.map((u) => u.email).sort());
    for (const role of ROLES)
      expect(all.some((u) => u.email === `${roleSlug(role)}@obol.example` && u.role === role)).toBe(true);
    const merchant = all.find((u) => u.email === 'merchant@obol.example')!;
    for (const e of ['risk-ops', 'payment-ops', 'finance', 'reviewer', 'brand'])
      expect(all.find((u) => u.email === `${e}@obol.example`)!.parentId).toBe(merchant.id);
    const m2 = all.find((u) => u.email === 'merchant2@obol.example')!;
    expect(all.find((u) => u.email === 'brand2@obol.example')!.parentId).toBe(m2.id);
    expect(all.find((u) => u.email === 'admin@obol.example')!.parentId).toBeNull();
    // passwords are stored as argon2id hashes only
    for (const u of all) {
      expect(u.hash, u.email).toMatch(/^\$argon2id\$/);
      expect(u.hash).not.toContain('Test@pass1');
    }
  });

  it('seeds nothing twice and leaves an edited role matrix alone', async () => {
    const [brand] = await database.db.select().from(roles).where(eq(roles.name, 'Brand'));
    const [reviewer] = await database.db.select().from(roles).where(eq(roles.name, 'Reviewer'));
    const [viewUsers] = await database.db.select().from(permissions).where(eq(permissions.name, 'User can view users'));
    // an administrator took everything from the Brand and gave the Reviewer the Users screen
    await database.db.delete(rolePermissions).where(eq(rolePermissions.roleId, brand.id));
    await database.db.insert(rolePermissions).values({ roleId: reviewer.id, permissionId: viewUsers.id });
    const before = await counts();
    const reviewerBefore = await permissionsOfRole(database.db, reviewer.id);
    for (let i = 0; i < 2; i++) {
      await syncReferenceData(database.db);
      expect(await seedDemo(database.db, 'Test@pass1')).toBe(false);
    }
    expect(await counts()).toEqual(before);
    expect(await permissionsOfRole(database.db, brand.id)).toEqual([]);
    expect(await permissionsOfRole(database.db, reviewer.id)).toEqual(reviewerBefore);
    expect(reviewerBefore).toContain('User can view users');
  });
});
