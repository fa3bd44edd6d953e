export * from './permissions.ts';
export * from './roles.ts';
export * from './messages.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './navigation.ts';
export * from './money.ts';
export * from './payments.ts';
