import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitFor(url: string, child: ChildProcess, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not come up`);
}

/** Builds the web app when it has no build yet, or when asked to. */
export function ensureBuilt(force = false) {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html')) || force) {
    // a production build whatever NODE_ENV the caller has (vitest sets it to 'test', and Vite then builds React's
    // development bundle: three times the JavaScript, and slower)
    const r = spawnSync('npm', ['run', 'build', '-w', '@obol/web'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (r.status !== 0) throw new Error('web build failed');
  }
}

export interface Stack {
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Builds the web app if needed (or when E2E_REBUILD=1), then starts the provider simulator and the server. */
export async function startStack(): Promise<Stack> {
  ensureBuilt(process.env.E2E_REBUILD === '1');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'obol-e2e-'));
  const port = await freePort();
  const providerPort = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: String(port),
    PROVIDER_PORT: String(providerPort),
    PROVIDER_DATA_DIR: path.join(dataDir, 'provider'),
    PROVIDER_WEBHOOK_URL: `http://127.0.0.1:${port}/api/provider/webhook`,
    DEMO_PASSWORD: 'Obol@2026',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  };
  const children: ChildProcess[] = [];
  const start = (entry: string) => {
    const c = spawn(process.execPath, [...(process.features.typescript ? [] : ['--experimental-strip-types']), entry], {
      cwd: root,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(c);
    return c;
  };
  if (existsSync(path.join(root, 'apps/provider/src/main.ts'))) {
    const p = start('apps/provider/src/main.ts');
    await waitFor(`http://127.0.0.1:${providerPort}/health`, p);
  }
  const server = start('apps/server/src/main.ts');
  await waitFor(`http://127.0.0.1:${port}/api/health`, server);

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    async stop() {
      for (const c of children) c.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
