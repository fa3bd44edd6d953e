// Runs the server suite on PGlite and, when TEST_DATABASE_URL is set, again on that PostgreSQL server.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const engines = ['pglite'];
if (process.env.TEST_DATABASE_URL) engines.push('postgres');
for (const engine of engines) {
  process.stdout.write(`\n=== server tests on ${engine} ===\n`);
  const r = spawnSync('npx', ['vitest', 'run', ...args], {
    stdio: 'inherit',
    env: { ...process.env, OBOL_TEST_DB: engine },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
