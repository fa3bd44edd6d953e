import { isRole } from '@obol/contract';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { AuthUser } from '../../platform/http.ts';
import { roles } from '../roles/tables.ts';
import { users } from '../users/tables.ts';

export type UserRow = typeof users.$inferSelect & { roleName: string };

export async function userByEmail(deps: Deps, email: string): Promise<UserRow | undefined> {
  const [row] = await deps.db
    .select({ u: users, roleName: roles.name })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  return row ? { ...row.u, roleName: row.roleName } : undefined;
}

export async function userById(deps: Deps, id: number): Promise<UserRow | undefined> {
  const [row] = await deps.db
    .select({ u: users, roleName: roles.name })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, id))
    .limit(1);
  return row ? { ...row.u, roleName: row.roleName } : undefined;
}

export function toAuthUser(u: UserRow): AuthUser {
  if (!isRole(u.roleName)) throw new Error(`user ${u.id} has unknown role ${u.roleName}`);
  return { id: u.id, name: u.name, email: u.email, role: u.roleName, parentId: u.parentId, twoFaAsOtp: u.twoFaAsOtp };
}
