import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../platform/db.ts';
import { createTestDatabase } from './harness.ts';

/**
 * The file's own database (createTestDatabase), made before its tests and dropped after them; `ready` is given it
 * first (to keep it, and to set it up).
 */
export function withTestDatabase(ready: (database: Database) => Promise<void> | void): void {
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const made = await createTestDatabase();
    drop = made.drop;
    await ready(made.database);
  });
  afterAll(async () => {
    await drop?.();
  });
}
