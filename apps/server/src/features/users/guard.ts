import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db.ts';
import { unprocessable } from '../../platform/errors.ts';
import { rolesHolding } from '../roles/repo.ts';
import { users } from './tables.ts';

/** The permission that lets a user edit roles (the Roles & Permissions screen). */
export const ROLE_EDITOR_PERMISSION = 'User can view role&permissions';

export const NOBODY_CAN_EDIT_ROLES = 'This change would leave nobody able to edit roles';

/**
 * After the change, inside the same transaction under lockRoleAdministration (roles/repo.ts): a 422 (rolling the
 * change back) when nobody is left.
 */
export async function assertSomeoneCanEditRoles(tx: Tx): Promise<void> {
  const [editor] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        isNull(users.deletedAt),
        sql`${users.roleId} IN ${rolesHolding(ROLE_EDITOR_PERMISSION)}`,
      ),
    )
    .limit(1);
  if (!editor) throw unprocessable(NOBODY_CAN_EDIT_ROLES);
}
