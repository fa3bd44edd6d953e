// Every table, for drizzle-kit (drizzle.config.ts), the seed and tests. It lives beside app.ts, outside platform/:
// the platform declares only its own tables (platform/tables.ts) and imports no feature (docs/architecture.md).
export * from './platform/tables.ts';
export * from './features/roles/tables.ts';
export * from './features/users/tables.ts';
export * from './features/auth/tables.ts';
export * from './features/ledger/tables.ts';
export * from './features/payouts/tables.ts';
export * from './features/provider/tables.ts';
export * from './features/batches/tables.ts';
export * from './features/downloads/tables.ts';
export * from './features/api-keys/tables.ts';
export * from './features/passkeys/tables.ts';
export * from './features/transfers/tables.ts';
export * from './features/payins/tables.ts';
export * from './features/reports/tables.ts';
export * from './features/accounting/tables.ts';
export * from './features/engine/tables.ts';
export * from './features/webhooks/tables.ts';
export * from './features/approvals/tables.ts';
export * from './features/activity/tables.ts';
