import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

// The one status vocabulary of the money tables (docs/decisions/043-one-status-vocabulary.md): every movement's
// status column stores these words, the engine reads and writes them, and each screen's own words (the spec's)
// are made here, at the edge: list answers, filters, exports, reports, webhooks, live events and the activity log.

/**
 * held: reserved, waiting for a second person's approval; pending: taken but not yet sent (a payout queued);
 * in_flight: with the provider (or a pay-in's link with its payer), its outcome awaited; completed; failed (the
 * provider declined it, or an approver refused it); expired (a pay-in's link ran out before it was paid);
 * rejected and refunded (a 2D transfer's own outcomes).
 */
export const STATUSES = [
  'held',
  'pending',
  'in_flight',
  'completed',
  'failed',
  'expired',
  'rejected',
  'refunded',
] as const;
export type Status = (typeof STATUSES)[number];

/** The screens that show a money table's status, each named as its movement kind (the outbox's `kind`). */
export type Screen = 'payout' | 'transfer' | '2d' | 'payin' | 'refund' | 'reward';

/** Each screen's word for each status its table can hold (the spec's words, as the screens always showed them). */
export const STATUS_WORDS = {
  payout: {
    held: 'Pending approval',
    pending: 'Pending',
    in_flight: 'Processing',
    completed: 'Completed',
    failed: 'Failed',
  },
  transfer: { held: 'Pending approval', in_flight: 'Pending', completed: 'Completed', failed: 'Declined' },
  '2d': {
    held: 'PENDING_APPROVAL',
    in_flight: 'PENDING',
    completed: 'COMPLETED',
    failed: 'FAILED',
    rejected: 'REJECTED',
    refunded: 'REFUNDED',
  },
  payin: { in_flight: 'Pending', completed: 'Completed', failed: 'Declined', expired: 'Expired' },
  refund: { in_flight: 'Pending', completed: 'Completed', failed: 'Declined' },
  reward: { in_flight: 'Pending', completed: 'Completed', failed: 'Declined' },
} as const satisfies Record<Screen, Partial<Record<Status, string>>>;

/** The statuses a screen's table may hold (its column's CHECK lists them). */
export type StatusOf<S extends Screen> = keyof (typeof STATUS_WORDS)[S] & Status;
export const statusesOf = <S extends Screen>(screen: S): StatusOf<S>[] =>
  Object.keys(STATUS_WORDS[screen]) as StatusOf<S>[];

const isScreen = (s: string): s is Screen => Object.hasOwn(STATUS_WORDS, s);

/**
 * The screen's word for a status. A kind with no mapping here (a batch, a download: not movements of this
 * vocabulary) keeps its own word, as does a word already the screen's.
 */
export function wordOf(screen: string, status: string): string;
export function wordOf(screen: string, status: string | null): string | null;
export function wordOf(screen: string, status: string | null): string | null {
  if (status === null || !isScreen(screen)) return status;
  return (STATUS_WORDS[screen] as Partial<Record<string, string>>)[status] ?? status;
}

/** The status a screen's word names (a filter's value), or undefined when the screen has no such word. */
export function statusOfWord<S extends Screen>(screen: S, word: string): StatusOf<S> | undefined {
  const hit = Object.entries(STATUS_WORDS[screen]).find(([, w]) => w === word);
  return hit?.[0] as StatusOf<S> | undefined;
}

/** The screen's word for a status column in SQL (a list or export built in SQL): a CASE over its statuses. */
export function wordSql(screen: Screen, column: SQL | AnyColumn): SQL {
  // literals, not parameters: the words are ours, and a CASE of parameters has no type in a UNION's arm
  const arms = Object.entries(STATUS_WORDS[screen]).map(([s, w]) => `WHEN '${s}' THEN '${w}'`);
  return sql`(CASE ${column} ${sql.raw(arms.join(' '))} ELSE ${column} END)`;
}

/** The CHECK of a status column: it holds only its screen's statuses. */
export const statusCheck = (screen: Screen, column: SQL | AnyColumn): SQL =>
  sql`${column} IN (${sql.raw(
    statusesOf(screen)
      .map((s) => `'${s}'`)
      .join(', '),
  )})`;

/** A filter's value, a screen's word, as the status its table stores (an unknown word stays: it matches none). */
export const statusFilter = (screen: Screen, word: string): string => statusOfWord(screen, word) ?? word;
