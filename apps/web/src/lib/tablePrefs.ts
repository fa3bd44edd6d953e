import { useState } from 'react';
import { useSession } from './session.ts';

export type Density = 'comfortable' | 'compact';

/** What a user chose for one table: the order of its columns, the hidden ones, the row height. */
export interface TablePrefs {
  order: string[];
  hidden: string[];
  density: Density;
}

/** What a table offers: its columns in their default order, which may not be hidden, which start hidden. */
export interface TableDefaults {
  ids: readonly string[];
  pinned: readonly string[];
  hidden: readonly string[];
}

export const prefsKey = (userId: number | string, tableId: string) => `obol.table.${userId}.${tableId}`;

const defaultsOf = (d: TableDefaults): TablePrefs => ({
  order: [...d.ids],
  hidden: d.hidden.filter((id) => !d.pinned.includes(id)),
  density: 'compact',
});

/**
 * Stored preferences made to fit the table as it is now: unknown columns dropped, new ones added in their
 * default place (hidden when they start hidden), pinned ones never hidden; anything unreadable gives the defaults.
 */
export function fitPrefs(raw: unknown, d: TableDefaults): TablePrefs {
  const base = defaultsOf(d);
  if (!raw || typeof raw !== 'object') return base;
  const r = raw as Partial<Record<keyof TablePrefs, unknown>>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null);
  const order = strings(r.order)?.filter((id) => d.ids.includes(id)) ?? [];
  const known = strings(r.order) ?? [];
  for (const [i, id] of d.ids.entries()) if (!order.includes(id)) order.splice(Math.min(i, order.length), 0, id);
  const hidden = (strings(r.hidden) ?? base.hidden).filter((id) => d.ids.includes(id) && !d.pinned.includes(id));
  // a column added since the preferences were saved starts as its default says
  for (const id of base.hidden) if (!known.includes(id) && !hidden.includes(id)) hidden.push(id);
  const density = r.density === 'comfortable' || r.density === 'compact' ? r.density : base.density;
  return { order, hidden, density };
}

function load(key: string, d: TableDefaults): TablePrefs {
  try {
    const raw = localStorage.getItem(key);
    return fitPrefs(raw ? JSON.parse(raw) : null, d);
  } catch {
    return defaultsOf(d);
  }
}

/**
 * The signed-in user's preferences for one table, kept in localStorage under the user's id and the table's id
 * (another user on the same browser starts from the defaults). `save` stores and shows a change; `reset`
 * forgets it.
 */
export function useTablePrefs(tableId: string, d: TableDefaults) {
  const userId = useSession()?.user.id ?? 'anonymous';
  const key = prefsKey(userId, tableId);
  const [state, setState] = useState(() => ({ key, prefs: load(key, d) }));
  const prefs = state.key === key ? state.prefs : load(key, d);
  if (state.key !== key) setState({ key, prefs });
  const save = (next: TablePrefs) => {
    setState({ key, prefs: next });
    try {
      localStorage.setItem(key, JSON.stringify(next));
    } catch {
      /* storage full or unavailable: the choice lasts for this page */
    }
  };
  const reset = () => {
    setState({ key, prefs: defaultsOf(d) });
    try {
      localStorage.removeItem(key);
    } catch {
      /* storage unavailable */
    }
  };
  const visible = prefs.order.filter((id) => !prefs.hidden.includes(id));
  return { prefs, visible, save, reset, pinned: d.pinned };
}
export type TablePrefsState = ReturnType<typeof useTablePrefs>;

/** The order with one column moved one place up (-1) or down (+1). */
export function move(order: readonly string[], id: string, by: -1 | 1): string[] {
  const i = order.indexOf(id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return [...order];
  const next = [...order];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
}
