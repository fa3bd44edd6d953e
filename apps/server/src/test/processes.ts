import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Proc {
  child: ChildProcess;
  url: string;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up:\n${output()}`);
}

function start(entry: string, env: Record<string, string>, health: string): Promise<Proc> {
  const child = spawn(
    process.execPath,
    [...(process.features.typescript ? [] : ['--experimental-strip-types']), entry],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const proc: Proc = {
    child,
    url: health.replace(/\/(api\/)?health$/, ''),
    output: () => out,
    kill: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
  return waitHealthy(health, child, proc.output).then(() => proc);
}

export const WEBHOOK_SECRET = 'test-webhook-secret';
export const PROVIDER_KEY = 'test-provider-key';

/** The provider simulator as its own process. */
export async function startProviderProcess(opts: {
  webhookUrl: string;
  settleMs?: number;
  port?: number;
  dataDir?: string;
}): Promise<Proc> {
  const port = opts.port ?? (await freePort());
  return start(
    'apps/provider/src/main.ts',
    {
      PROVIDER_PORT: String(port),
      PROVIDER_HOST: '127.0.0.1',
      PROVIDER_API_KEY: PROVIDER_KEY,
      PROVIDER_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PROVIDER_WEBHOOK_URL: opts.webhookUrl,
      PROVIDER_SETTLE_MS: String(opts.settleMs ?? 200),
      PROVIDER_DATA_DIR: opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'obol-provider-')),
    },
    `http://127.0.0.1:${port}/health`,
  );
}

/** An Obol server process on a PostgreSQL database. */
export async function startServerProcess(opts: {
  databaseUrl: string;
  providerUrl: string;
  port?: number;
  workers?: boolean;
  env?: Record<string, string>;
}): Promise<Proc> {
  const port = opts.port ?? (await freePort());
  return start(
    'apps/server/src/main.ts',
    {
      NODE_ENV: 'test',
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'obol-server-')),
      DATABASE_URL: opts.databaseUrl,
      PROVIDER_URL: opts.providerUrl,
      PROVIDER_API_KEY: PROVIDER_KEY,
      PROVIDER_WEBHOOK_SECRET: WEBHOOK_SECRET,
      SECRETS_KEY: 'a'.repeat(64),
      SEED_DEMO: '0',
      WORKERS: opts.workers === false ? '0' : '1',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    `http://127.0.0.1:${port}/api/health`,
  );
}
