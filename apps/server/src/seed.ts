import {
  DEFAULT_ROLE_PERMISSIONS,
  PERMISSION_GROUPS,
  ROLES,
  roleSlug,
  type Permission,
  type RoleName,
} from '@obol/contract';
import { count, eq, inArray } from 'drizzle-orm';
import { hashPassword } from './platform/crypto.ts';
import type { Db } from './platform/db.ts';
import { holderDetails, permissions, rolePermissions, roles, users } from './schema.ts';
import { ensurePlatformAccounts, openHolderAccounts, platformAccountId } from './features/ledger/accounts.ts';
import { postEntry } from './features/ledger/service.ts';

/**
 * Permissions and roles are reference data: kept in step with the contract on every start (new ones are added, and
 * given to the roles whose defaults have them; nothing is removed or reset). The role matrix is only written when a
 * role is first created, so edits made in Roles & Permissions survive restarts.
 */
export async function syncReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    let position = 0;
    const rows = PERMISSION_GROUPS.flatMap((g) =>
      g.permissions.map((name, i) => ({
        name,
        screen: g.screen,
        isView: i === 0,
        position: ++position,
      })),
    );
    const added = await tx
      .insert(permissions)
      .values(rows)
      .onConflictDoNothing({ target: permissions.name })
      .returning({ id: permissions.id, name: permissions.name });
    await ensurePlatformAccounts(tx);

    const existing = await tx.select({ id: roles.id, name: roles.name }).from(roles);
    // a permission new to this database (added to the contract later) goes to the existing roles whose
    // defaults have it; what was edited in Roles & Permissions stays as it is
    const given = existing.flatMap((r) =>
      added
        .filter((p) => (DEFAULT_ROLE_PERMISSIONS[r.name as RoleName] ?? []).includes(p.name as Permission))
        .map((p) => ({ roleId: r.id, permissionId: p.id })),
    );
    if (given.length) await tx.insert(rolePermissions).values(given).onConflictDoNothing();
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
      DEFAULT_ROLE_PERMISSIONS[r.name as RoleName].map((p) => ({
        roleId: r.id,
        permissionId: idOf.get(p)!,
      })),
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
  /** merchants and brands: fee in basis points, and opening funds in cents (payout, pay-in) */
  feeBps?: number;
  funds?: { payout: number; payin: number };
}

/** One user per role, the merchant-side ones belonging to the merchant, plus a second merchant and its brand. */
export const DEMO_USERS: DemoUser[] = [
  ...ROLES.filter((r) => r !== 'Merchant').map((role): DemoUser => ({
    email: `${roleSlug(role)}@obol.example`,
    name: demoName(role),
    role,
    parent: ['Risk Ops', 'Payment Ops', 'Finance', 'Reviewer', 'Brand'].includes(role)
      ? DEMO_MERCHANT_EMAIL
      : undefined,
  })),
  ...([
    {
      email: DEMO_MERCHANT_EMAIL,
      name: 'Acme Payouts',
      role: 'Merchant',
      feeBps: 150,
      funds: { payout: 5_000_000, payin: 1_250_000 },
    },
    {
      email: 'merchant2@obol.example',
      name: 'Globex Trading',
      role: 'Merchant',
      feeBps: 200,
      funds: { payout: 2_000_000, payin: 400_000 },
    },
    {
      email: 'brand2@obol.example',
      name: 'Globex Outlet',
      role: 'Brand',
      parent: 'merchant2@obol.example',
      feeBps: 250,
      funds: { payout: 300_000, payin: 50_000 },
    },
  ] satisfies DemoUser[]),
].map((u): DemoUser =>
  u.role === 'Brand' && u.email === 'brand@obol.example'
    ? { ...u, feeBps: 175, funds: { payout: 1_000_000, payin: 200_000 } }
    : u,
);

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
    const roleRows = await tx
      .select()
      .from(roles)
      .where(inArray(roles.name, [...ROLES]));
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
          feeBps: u.feeBps ?? null,
        })
        .returning({ id: users.id });
      ids.set(u.email, row.id);
    }
    // merchants and brands get their accounts, funded through the ledger like real money arrives:
    // a pay-in settlement from the provider, and a top-up of the payout account
    const provider = await platformAccountId(tx, 'provider');
    for (const u of ordered.filter((x) => x.role === 'Merchant' || x.role === 'Brand')) {
      const id = ids.get(u.email)!;
      await tx.insert(holderDetails).values({
        userId: id,
        descriptor: u.name.toUpperCase().slice(0, 22),
        brandName: u.role === 'Brand' ? u.name : null,
        obolId: `3${String(id).padStart(8, '0')}`,
        mid: `MID${String(id).padStart(6, '0')}`,
        city: 'Berlin',
      });
      const accts = await openHolderAccounts(tx, { id, name: u.name });
      const payout = accts.find((a) => a.kind === 'payout')!;
      const payin = accts.find((a) => a.kind === 'payin')!;
      if (u.funds?.payin) {
        await postEntry(tx, {
          idempotencyKey: `seed:${u.email}:payin`,
          kind: 'payin.settlement',
          memo: 'Demo pay-in settlement',
          postings: [
            { accountId: provider, amount: -u.funds.payin },
            { accountId: payin.id, amount: u.funds.payin },
          ],
        });
      }
      if (u.funds?.payout) {
        await postEntry(tx, {
          idempotencyKey: `seed:${u.email}:payout-funding`,
          kind: 'payout.funding',
          memo: 'Demo funding of the payout account',
          postings: [
            { accountId: provider, amount: -u.funds.payout },
            { accountId: payout.id, amount: u.funds.payout },
          ],
        });
      }
    }
  });
  return true;
}

export async function userIdByEmail(db: Db, email: string): Promise<number | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}
