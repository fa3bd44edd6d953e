import type { MerchantAccountChoice } from '@obol/contract';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { holderAccountsOf } from '../ledger/accounts.ts';
import { searchHolders } from '../merchants/holders.ts';
import { userNameOf } from '../users/repo.ts';

// ---- Merchants Payout's chooser ----

/** The active merchants and brands in scope matching the search, with their account ids (the payments picker's). */
export async function merchantsWithAccounts(
  db: Executor,
  scope: Scope,
  search: string,
): Promise<MerchantAccountChoice[]> {
  const holders: { id: number; name: string; role: string; parent: string | null }[] = [];
  for (const m of await searchHolders(db, scope, search)) {
    const role = m.roles[0]?.name ?? 'Merchant';
    // a brand that matched on its own: its merchant's name, asked of the users feature
    const parent = role === 'Brand' && m.parent_id ? ((await userNameOf(db, m.parent_id))?.name ?? null) : null;
    holders.push({ id: m.id, name: m.name, role, parent });
    for (const b of m.active_brands) holders.push({ id: b.id, name: b.name, role: 'Brand', parent: m.name });
  }
  const accountsBy = await holderAccountsOf(
    db,
    holders.map((h) => h.id),
  );
  const out: MerchantAccountChoice[] = [];
  for (const h of holders) {
    const list = accountsBy.get(h.id) ?? [];
    const payout = list.find((a) => a.kind === 'payout') ?? list[0];
    if (!payout) continue;
    out.push({
      id: h.id,
      merchant_name: h.name,
      role: h.role,
      parent_name: h.parent,
      account_id: payout.accountId,
      account_reference: payout.accountReference,
      accounts: list.map((a) => ({ kind: a.kind, account_id: a.accountId })),
    });
  }
  return out;
}
