import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Operation } from '@obol/contract';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import type { z } from 'zod';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../platform/config.ts';
import { openDatabase, runMigrations, type Database } from '../platform/db.ts';
import type { Deps } from '../platform/deps.ts';
import type { Access } from '../platform/http.ts';
import { createMailer, type MailMessage } from '../platform/mail.ts';
import { ensureApiKeys } from '../features/api-keys/service.ts';
import { seedDemo, syncReferenceData } from '../seed.ts';
import { startWorkers } from '../workers.ts';

export const DEMO_PASSWORD = 'Test@pass1';
export const engine = (process.env.OBOL_TEST_DB ?? 'pglite') as 'pglite' | 'postgres';

/** A database of the test's own: in-memory PGlite, or a fresh database on TEST_DATABASE_URL dropped at the end. */
export async function createTestDatabase(): Promise<{ database: Database; url?: string; drop(): Promise<void> }> {
  if (engine === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('OBOL_TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `obol_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    const url = u.toString();
    const database = await openDatabase({ url, poolSize: 20 });
    await runMigrations(database);
    return {
      database,
      url,
      async drop() {
        await database.close().catch(() => undefined);
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const database = await openDatabase({});
  await runMigrations(database);
  return { database, drop: () => database.close() };
}

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  database: Database;
  /** every mail sent, newest last */
  mails: MailMessage[];
  dataDir: string;
  /** every route the app declared, with its access rule (undefined when the route declares none) */
  routes: RouteInfo[];
  close(): Promise<void>;
  post(url: string, body?: unknown, token?: string): Promise<TestResponse>;
  /** multipart upload of one file with form fields */
  upload(
    url: string,
    fields: Record<string, string>,
    file: { name: string; content: string | Buffer },
    token?: string,
  ): Promise<TestResponse>;
  /** signs in with the e-mailed code and returns the bearer token */
  signIn(email: string, password?: string): Promise<string>;
  lastMailTo(email: string): MailMessage | undefined;
  /** the app's address when started with listen */
  address?: string;
}

export interface RouteInfo {
  method: string;
  url: string;
  access: Access | undefined;
  /** the zod schema of the JSON body (POST) or query string (GET), when the route declares one with route() */
  input: z.ZodType | undefined;
  /** the contract's operation the route serves */
  operation: Operation | undefined;
}

type SchemaDef = {
  type?: string;
  shape?: Record<string, z.ZodType>;
  in?: unknown;
  innerType?: unknown;
  options?: unknown[];
};
/**
 * The fields of a route's input: the shape of its zod object, under any pipe, default or refinement; of a union
 * (create-user: a merchant or brands), its first member's.
 */
export function inputShape(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  let s = schema as unknown as { def?: SchemaDef } | undefined;
  for (let i = 0; s && i < 10; i++) {
    const def = s.def;
    if (def?.type === 'object' && def.shape) return def.shape;
    s = (def?.in ?? def?.innerType ?? def?.options?.[0]) as typeof s;
  }
  return {};
}

export interface TestResponse {
  status: number;
  body: any;
  headers: Record<string, unknown>;
  text: string;
}

export interface TestAppOptions {
  /** run the job workers in the test app (staging, execution, submission) */
  workers?: boolean;
  /** where the provider simulator listens, when the test starts one */
  providerUrl?: string;
  /** add routes or hooks to the app before it is ready */
  beforeReady?: (app: FastifyInstance) => void;
  /** listen on a free port (for webhooks from the provider simulator) */
  listen?: boolean;
  /** an existing, seeded database (shared with server processes); kept open and not dropped on close */
  database?: Database;
  /** capture the log (give LOG_LEVEL too: the harness's default is silent) */
  logStream?: DestinationStream;
  /** serve a web app from this folder (default: none) */
  webDist?: string;
}

export async function startTestApp(env: Record<string, string> = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'obol-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    ...(opts.providerUrl ? { PROVIDER_URL: opts.providerUrl } : {}),
    ...env,
  });
  const { database, drop } = opts.database
    ? { database: opts.database, drop: async () => undefined }
    : await createTestDatabase();
  if (!opts.database) {
    await syncReferenceData(database.db);
    await seedDemo(database.db, DEMO_PASSWORD);
    await ensureApiKeys(database.db, config.secretsKey);
  }
  const mails: MailMessage[] = [];
  const routes: RouteInfo[] = [];
  const { app, deps } = await buildApp({
    config,
    database,
    serveWeb: !!opts.webDist,
    webDist: opts.webDist,
    logStream: opts.logStream,
    onRoute: (r) => {
      const config = r.config as { access?: Access; input?: z.ZodType; operation?: Operation } | undefined;
      for (const method of [r.method].flat())
        routes.push({
          method,
          url: r.url,
          access: config?.access,
          input: config?.input,
          operation: config?.operation,
        });
    },
  });
  const real = createMailer(config, database.db, app.log);
  deps.mailer = {
    async send(m) {
      await real.send(m);
      mails.push(m);
    },
  };
  opts.beforeReady?.(app);
  await app.ready();
  const address = opts.listen ? await app.listen({ port: 0, host: '127.0.0.1' }) : undefined;
  const stopWorkers = opts.workers ? await startWorkers(deps) : async () => undefined;

  const post = async (url: string, body?: unknown, token?: string): Promise<TestResponse> => {
    const res = await app.inject({
      method: 'POST',
      url,
      payload: (body ?? {}) as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    let parsed: unknown = undefined;
    try {
      parsed = res.json();
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, body: parsed, headers: res.headers, text: res.body };
  };
  const upload = async (
    url: string,
    fields: Record<string, string>,
    file: { name: string; content: string | Buffer },
    token?: string,
  ) => {
    const boundary = `----obol${Date.now()}`;
    const parts: Buffer[] = [];
    for (const [k, v] of Object.entries(fields)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    }
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    const res = await app.inject({
      method: 'POST',
      url,
      payload: Buffer.concat(parts),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    let parsed: unknown;
    try {
      parsed = res.json();
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, body: parsed as any, headers: res.headers, text: res.body };
  };
  const lastMailTo = (email: string) => [...mails].reverse().find((m) => m.to === email);

  return {
    app,
    deps,
    config,
    database,
    mails,
    dataDir,
    routes,
    post,
    upload,
    address,
    lastMailTo,
    async signIn(email, password = DEMO_PASSWORD) {
      const login = await post('/api/login', { email, password, auth_type: 'email' });
      if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${login.text}`);
      const code = lastMailTo(email)?.code;
      const verify = await post('/api/verify-code', { challenge_token: login.body.challenge_token, code });
      if (verify.status !== 200) throw new Error(`verify ${email}: ${verify.status} ${verify.text}`);
      return verify.body.accessToken as string;
    },
    async close() {
      await stopWorkers();
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits for an export job to write its file into the caller's download list (transactions, reports with type 1, or
 * 2D transactions with accounting)
 * (Completed), then
 * downloads it and answers its lines. Throws when the file is not Completed within `ms`.
 */
export async function exportedLines(
  t: TestApp,
  fileId: string,
  token: string,
  { ms = 10_000, type = 0, accounting = false }: { ms?: number; type?: 0 | 1; accounting?: boolean } = {},
): Promise<string[]> {
  const end = Date.now() + ms;
  for (;;) {
    const list = await t.post('/api/download-files', { type, accounting, page: 1, per_page: 50 }, token);
    const file = (list.body.data as { id: string; status: string }[]).find((f) => f.id === fileId);
    if (file?.status === 'Completed') break;
    if (Date.now() > end) throw new Error(`export ${fileId} is ${file?.status ?? 'missing'} after ${ms} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
  const dl = await t.app.inject({
    method: 'GET',
    url: `/api/download-file/${fileId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  if (dl.statusCode !== 200) throw new Error(`download of ${fileId} answered ${dl.statusCode}`);
  return dl.body.trim().split(/\r?\n/);
}
