import { z } from 'zod';
import { operation, timestamp } from './operation.ts';

/** What an open screen hears: a movement of money, or an export's file, changed status. */
const LIVE_KINDS = ['payout', 'batch', 'transfer', 'refund', 'reward', '2d', 'payin', 'download'] as const;
export type LiveKind = (typeof LIVE_KINDS)[number];

/** One event's data (its SSE `id:` is the outbox's id, its `event:` the kind). */
export const liveEvent = z.object({
  kind: z.enum(LIVE_KINDS),
  /** the movement's id (a batch's batch id), or the file's */
  id: z.string(),
  /** its new status, in its list's words */
  status: z.string(),
  /** cents (0 for a file) */
  amount: z.number().int(),
  at: timestamp,
});
export type LiveEvent = z.output<typeof liveEvent>;

export const liveOps = {
  events: operation({
    id: 'events',
    method: 'GET',
    path: '/api/events',
    tag: 'Live',
    summary:
      'Server-Sent Events for the caller: each status change of a movement it may see (its tenant, and the lists its ' +
      'permissions open) and of its own exports, as `id: <n>`, `event: <kind>`, `data: {kind, id, status, amount, ' +
      'at}`. Send `Last-Event-ID` to resume after the last one received. A comment every 20 s keeps it open; it ends ' +
      'when the session does.',
    access: 'authenticated',
    output: { file: ['text/event-stream'] },
  }),
} as const;
