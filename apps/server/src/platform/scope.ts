import { MERCHANT_SIDE_ROLES, STAFF_ROLES, type RoleName } from '@obol/contract';
import { sql, type Column, type SQL } from 'drizzle-orm';

/**
 * Whose data a caller sees (DECISIONS.md, "Who sees whose data"). Every repository query takes one.
 * - all: staff roles see every merchant
 * - merchant: a Merchant and its merchant-side team see that merchant and its brands
 * - brand: a Brand sees itself only
 */
export type Scope =
  | { kind: 'all' }
  | { kind: 'merchant'; merchantId: number }
  | { kind: 'brand'; merchantId: number; brandId: number }
  | { kind: 'none' };

export function scopeFor(user: { id: number; role: RoleName; parentId: number | null }): Scope {
  if (STAFF_ROLES.includes(user.role)) return { kind: 'all' };
  if (user.role === 'Merchant') return { kind: 'merchant', merchantId: user.id };
  if (user.role === 'Brand' && user.parentId !== null)
    return { kind: 'brand', merchantId: user.parentId, brandId: user.id };
  if (MERCHANT_SIDE_ROLES.includes(user.role) && user.parentId !== null)
    return { kind: 'merchant', merchantId: user.parentId };
  // a merchant-side user without a merchant sees nothing
  return { kind: 'none' };
}

/**
 * The rows a scope may see of a table kept with its tenant (`merchant`) and its holder (the brand it is for or on
 * behalf of): staff all, a merchant (and its team) its own and its brands', a brand its own.
 */
export function tenantFilter(scope: Scope, merchant: Column | SQL, holder: Column | SQL): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return sql`${merchant} = ${scope.merchantId}`;
    case 'brand':
      return sql`${holder} = ${scope.brandId}`;
    default:
      return sql`false`;
  }
}
