import { MERCHANT_SIDE_ROLES, STAFF_ROLES, type RoleName } from '@obol/contract';

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
