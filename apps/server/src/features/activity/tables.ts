import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Written by the platform around every mutating route; never updated or deleted by the application. */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id'),
    userName: text('user_name'),
    userEmail: text('user_email'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** success, failure or denied */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code').notNull(),
    detail: text('detail'),
    ip: text('ip'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('activity_log_user_idx').on(t.userId, t.createdAt),
  ],
);
