import {
  DEFAULT_ROLE_PERMISSIONS,
  PERMISSION_GROUPS,
  ROLES,
  roleSlug,
  type RoleName,
} from '@obol/contract';
import { count, eq, inArray } from 'drizzle-orm';
import { hashPassword } from './platform/crypto.ts';
import type { Db } from './platform/db.ts';
import { permissions, rolePermissions, roles, users } from './platform/schema.ts';

/**
 * Permissions and roles are reference data: kept in step with the contract on every start (new ones are
 * added, nothing is removed or reset). The role matrix is only written when a role is first created, so
 * edits made in Roles & Permissions survive restarts.
 */
export async function syncReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    let position = 0;
    const rows = PERMISSION_GROUPS.flatMap((g) =>
      g.permissions.map((name, i) => ({ name, screen: g.screen, isView: i === 0, position: ++position })),
    );
    await tx.insert(permissions).values(rows).onConflictDoNothing({ target: permissions.name });

    const existing = await tx.select({ name: roles.name }).from(roles);
    const missing = ROLES.filter((r) => !existing.some((e) => e.name === r));
    if (!missing.length) return;
    const created = await tx
      .insert(roles)
      .values(missing.map((name) => ({ name })))
      .onConflictDoNothing()
      .returning();
    const perms = await tx.select().from(permissions);
    const idOf = new Map(perms.map((p) => [p.name, p.id]));
    const links = created.flatMap((r) =>
      DEFAULT_ROLE_PERMISSIONS[r.name as RoleName].map((p) => ({ roleId: r.id, permissionId: idOf.get(p)! })),
    );
    if (links.length) await tx.insert(rolePermissions).values(links).onConflictDoNothing();
  });
}

export const DEMO_MERCHANT_EMAIL = 'merchant@obol.example';

export interface DemoUser {
  email: string;
  name: string;
  role: RoleName;
  /** e-mail of the merchant it belongs to */
  parent?: string;
}

/** One user per role, the merchant-side ones belonging to the merchant, plus a second merchant and its brand. */
export const DEMO_USERS: DemoUser[] = [
  ...ROLES.filter((r) => r !== 'Merchant').map(
    (role): DemoUser => ({
      email: `${roleSlug(role)}@obol.example`,
      name: demoName(role),
      role,
      parent: ['Risk Ops', 'Payment Ops', 'Finance', 'Reviewer', 'Brand'].includes(role) ? DEMO_MERCHANT_EMAIL : undefined,
    }),
  ),
  { email: DEMO_MERCHANT_EMAIL, name: 'Acme Payouts', role: 'Merchant' },
  { email: 'merchant2@obol.example', name: 'Globex Trading', role: 'Merchant' },
  { email: 'brand2@obol.example', name: 'Globex Outlet', role: 'Brand', parent: 'merchant2@obol.example' },
];

function demoName(role: RoleName): string {
  switch (role) {
    case 'Admin':
      return 'Ada Admin';
    case 'Brand':
      return 'Acme Brand';
    default:
      return `Demo ${role}`;
  }
}

/** Seeds the demo users once: a database that has users already is left alone. Returns whether it seeded. */
export async function seedDemo(db: Db, demoPassword: string): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n > 0) return false;
  const hash = await hashPassword(demoPassword);
  await db.transaction(async (tx) => {
    const roleRows = await tx.select().from(roles).where(inArray(roles.name, [...ROLES]));
    const roleId = new Map(roleRows.map((r) => [r.name, r.id]));
    const ids = new Map<string, number>();
    // merchants first, so the others can point at them
    const ordered = [...DEMO_USERS].sort((a, b) => Number(!!a.parent) - Number(!!b.parent));
    for (const u of ordered) {
      const [row] = await tx
        .insert(users)
        .values({
          name: u.name,
          email: u.email,
          passwordHash: hash,
          roleId: roleId.get(u.role)!,
          parentId: u.parent ? ids.get(u.parent)! : null,
          emailVerifiedAt: new Date(),
        })
        .returning({ id: users.id });
      ids.set(u.email, row.id);
    }
  });
  return true;
}

export async function userIdByEmail(db: Db, email: string): Promise<number | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}
