import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { S3Options } from './files.ts';
import { DEFAULT_LIMITS, type Limits } from './limit-rules.ts';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** where exports and reports are written (default DATA_DIR/files) */
  FILES_DIR: z.string().min(1).optional(),
  /** an S3-compatible bucket for generated files, instead of the folder */
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\//, 'S3_ENDPOINT must be an http(s):// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['0', '1', 'true', 'false']).optional(),
  S3_PREFIX: z.string().default(''),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().default('Obol <no-reply@obol.example>'),
  PROVIDER_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  PUBLIC_URL: z.string().optional(),
  PROVIDER_URL: z
    .string()
    .regex(/^https?:\/\//, 'PROVIDER_URL must be an http(s):// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PROVIDER_API_KEY: z
    .string()
    .min(8)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PROVIDER_WEBHOOK_SECRET: z
    .string()
    .min(8)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  WORKERS: z.enum(['0', '1', 'true', 'false']).optional(),
  PAYOUT_RECOVERY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['0', '1', 'true', 'false']).optional(),
  SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'SECRETS_KEY must be 64 hexadecimal characters (32 bytes)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DEMO_PASSWORD: z.string().min(7).default('Obol@2026'),
  SEED_DEMO: z.enum(['0', '1', 'true', 'false']).optional(),
  SESSION_IDLE_SECONDS: z.coerce.number().int().min(10).default(1800),
  /** the bearer token of GET /api/metrics; unset: no metrics (404) */
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must be at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SESSION_MAX_HOURS: z.coerce.number().min(1).default(12),
  /** unset or 0: req.ip is the connecting address; else the proxies' addresses or CIDRs, comma-separated */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const trust = parseTrustProxy(v);
      if (typeof trust === 'string') {
        ctx.addIssue({ code: 'custom', message: trust });
        return z.NEVER;
      }
      return trust;
    }),
  /** the WebAuthn relying party (passkeys): its domain, and the origin the browser signs for */
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'WEBAUTHN_RP_ID must be a domain name (like obol.example), without scheme or port')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  WEBAUTHN_ORIGIN: z
    .string()
    .regex(/^https?:\/\/[^/]+$/, 'WEBAUTHN_ORIGIN must be an origin like https://obol.example (no path)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  filesDir: string;
  /** set when generated files go to an S3-compatible bucket */
  s3?: S3Options;
  databaseUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  providerPort: number;
  publicUrl: string;
  providerUrl: string;
  providerApiKey: string;
  providerWebhookSecret: string;
  /** run the job workers in this process (default yes) */
  workers: boolean;
  /** a payout in flight this long is looked up at the provider and settled from its answer */
  payoutRecoverySeconds: number;
  /**
   * merchants' webhooks may reach this machine and private networks (WEBHOOKS_ALLOW_PRIVATE, default yes): outside
   * production only, for a receiver on a developer's machine
   */
  webhooksAllowPrivate: boolean;
  secretsKey: Buffer;
  demoPassword: string;
  /** seed demo data when the database has none */
  seedDemo: boolean;
  sessionIdleSeconds: number;
  /** the bearer token of GET /api/metrics; undefined: /api/metrics answers 404 */
  metricsToken?: string;
  sessionMaxHours: number;
  logLevel: string;
  /**
   * Fastify's trustProxy: false (default) ignores X-Forwarded-For; the proxies' addresses make req.ip (the activity
   * log, sign-in limits) the client's address as those proxies report it.
   */
  trustProxy: false | string[];
  limits: Limits;
  /**
   * The WebAuthn relying party. Unset: in production the host and origin of PUBLIC_URL; elsewhere those of the
   * request (its Host header), so a development server works under whatever name it is reached by.
   */
  webauthnRpId?: string;
  webauthnOrigin?: string;
}

export class ConfigError extends Error {}

/** Reads and validates the environment once. Throws ConfigError with a readable message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  let secretsKey: Buffer;
  if (e.SECRETS_KEY) secretsKey = Buffer.from(e.SECRETS_KEY, 'hex');
  else if (production) {
    throw new ConfigError(
      'SECRETS_KEY is required in production: set it to 64 hexadecimal characters (for example `openssl rand -hex 32`).',
    );
  } else secretsKey = devSecretsKey(dataDir);
  if (production && (!e.PROVIDER_API_KEY || !e.PROVIDER_WEBHOOK_SECRET)) {
    throw new ConfigError('PROVIDER_API_KEY and PROVIDER_WEBHOOK_SECRET are required in production.');
  }
  if (production && !e.SMTP_URL) {
    throw new ConfigError(
      'SMTP_URL is required in production: without it mail is written as .eml files under DATA_DIR/mail, ' +
        'and those files hold sign-in codes and password links. Set SMTP_URL=smtp://user:password@host:port.',
    );
  }
  const seedDemo = e.SEED_DEMO === undefined ? !production : e.SEED_DEMO === '1' || e.SEED_DEMO === 'true';
  return {
    env: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    filesDir: e.FILES_DIR ? path.resolve(e.FILES_DIR) : path.join(dataDir, 'files'),
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          accessKeyId: e.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY || undefined,
          // an endpoint of one's own is usually path-style; AWS itself is not
          forcePathStyle:
            e.S3_FORCE_PATH_STYLE === undefined
              ? !!e.S3_ENDPOINT
              : e.S3_FORCE_PATH_STYLE === '1' || e.S3_FORCE_PATH_STYLE === 'true',
          prefix: e.S3_PREFIX,
        }
      : undefined,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    providerPort: e.PROVIDER_PORT,
    publicUrl: e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`,
    providerUrl: e.PROVIDER_URL ?? `http://127.0.0.1:${e.PROVIDER_PORT}`,
    providerApiKey: e.PROVIDER_API_KEY ?? 'dev-provider-key',
    providerWebhookSecret: e.PROVIDER_WEBHOOK_SECRET ?? 'dev-webhook-secret',
    workers: e.WORKERS === undefined ? true : e.WORKERS === '1' || e.WORKERS === 'true',
    payoutRecoverySeconds: e.PAYOUT_RECOVERY_SECONDS,
    // never in production, whatever the environment says
    webhooksAllowPrivate:
      !production && (e.WEBHOOKS_ALLOW_PRIVATE === undefined || ['1', 'true'].includes(e.WEBHOOKS_ALLOW_PRIVATE)),
    secretsKey,
    demoPassword: e.DEMO_PASSWORD,
    seedDemo,
    sessionIdleSeconds: e.SESSION_IDLE_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    limits: structuredClone(DEFAULT_LIMITS),
    webauthnRpId: e.WEBAUTHN_RP_ID?.toLowerCase(),
    webauthnOrigin: e.WEBAUTHN_ORIGIN,
  };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as Fastify takes it, or a message saying why it is refused. Refused on purpose: `true` (anyone may
 * set X-Forwarded-For) and a hop count, which Fastify 5 ignores because it cannot tell a proxy from a client that
 * reaches the server directly and forges the header.
 */
export function parseTrustProxy(value: string | undefined): false | string[] | string {
  const v = value?.trim() ?? '';
  if (v === '' || v === '0' || v === 'false') return false;
  const hint = "give the proxies' addresses or CIDRs, comma-separated (for example 10.0.0.0/8 or loopback)";
  if (/^\d+$/.test(v) || v === 'true') {
    return `${v} would let a client that reaches the server directly forge its address; ${hint}`;
  }
  const list = v.split(',').map((a) => a.trim());
  const bad = list.find((a) => !isProxyAddress(a));
  return bad === undefined ? list : `"${bad}" is not an address, a CIDR, loopback, linklocal or uniquelocal; ${hint}`;
}

function isProxyAddress(a: string): boolean {
  if (PROXY_NAMES.has(a)) return true;
  const slash = a.indexOf('/');
  if (slash === -1) return isIP(a) !== 0;
  const version = isIP(a.slice(0, slash));
  const bits = a.slice(slash + 1);
  if (version === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/** Outside production a missing SECRETS_KEY is generated once into DATA_DIR and reused. */
function devSecretsKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secrets.key');
  if (existsSync(file)) {
    const hex = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-fA-F]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return key;
}
