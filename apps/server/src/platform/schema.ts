export * from '../features/roles/tables.ts';
export * from '../features/users/tables.ts';
export * from '../features/auth/tables.ts';
export * from '../features/activity/tables.ts';
export * from '../features/ledger/tables.ts';
export * from '../features/payouts/tables.ts';
export * from '../features/provider/tables.ts';
export * from '../features/batches/tables.ts';
