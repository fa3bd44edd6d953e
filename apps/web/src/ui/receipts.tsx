import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

// The state only: the app's root holds it, so its cards (ReceiptOutlet.tsx, with their chips and tooltips) stay
// out of the sign-in page's scripts.

/** What a money action did, as the person who made it needs to find it again. */
export interface Receipt {
  /** what was done: 'Transfer submitted', 'Payout created', 'Refund requested' */
  title: string;
  /** cents moved */
  amount: number;
  /** cents of fee on top, when there is one */
  fee?: number;
  /** the account or holder the money left */
  from: string;
  /** who receives it */
  to: string;
  /** the id to quote: transfer id, batch id, pay-in id */
  reference: string;
  /** its status as its list shows it */
  status: string;
  /** where it is listed */
  link: { to: string; label: string };
}

interface Receipts {
  showReceipt(r: Receipt): void;
}
const Ctx = createContext<Receipts>({ showReceipt: () => undefined });
/** Shows a receipt above the page; it stays (across pages too) until dismissed. */
export const useReceipt = () => useContext(Ctx);

/** at most this many receipts at once, newest first: older ones are in their lists */
const KEEP = 3;
interface Kept extends Receipt {
  key: number;
}
export const ListCtx = createContext<{ receipts: Kept[]; dismiss(key: number): void }>({
  receipts: [],
  dismiss: () => undefined,
});

export function ReceiptsProvider({ children }: { children: ReactNode }) {
  const [receipts, setReceipts] = useState<Kept[]>([]);
  const showReceipt = useCallback(
    (r: Receipt) => setReceipts((all) => [{ ...r, key: Date.now() + Math.random() }, ...all].slice(0, KEEP)),
    [],
  );
  const dismiss = useCallback((key: number) => setReceipts((all) => all.filter((r) => r.key !== key)), []);
  const value = useMemo(() => ({ showReceipt }), [showReceipt]);
  const list = useMemo(() => ({ receipts, dismiss }), [receipts, dismiss]);
  return (
    <Ctx.Provider value={value}>
      <ListCtx.Provider value={list}>{children}</ListCtx.Provider>
    </Ctx.Provider>
  );
}
