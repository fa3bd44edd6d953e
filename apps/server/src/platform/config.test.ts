import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { DEFAULT_LIMITS } from './limit-rules.ts';
import { createMailer } from './mail.ts';

/** the least a production start needs */
const production = {
  NODE_ENV: 'production',
  SECRETS_KEY: 'f'.repeat(64),
  PROVIDER_API_KEY: 'k'.repeat(16),
  PROVIDER_WEBHOOK_SECRET: 's'.repeat(16),
  SMTP_URL: 'smtp://mail.example:587',
};

const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'obol-config-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const d = dir();
    const c = loadConfig({ DATA_DIR: d });
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      providerPort: 3100,
      env: 'development',
      seedDemo: true,
      demoPassword: 'Obol@2026',
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.smtpUrl).toBeUndefined();
    // DATA_DIR defaults to ./data (a SECRETS_KEY is given so that nothing is written there)
    expect(loadConfig({ SECRETS_KEY: 'a'.repeat(64) }).dataDir).toBe(path.resolve('./data'));
    expect(existsSync(path.join(d, 'secrets.key'))).toBe(true);
  });

  it('uses a SECRETS_KEY given, writing no file', () => {
    const d = dir();
    const c = loadConfig({ DATA_DIR: d, SECRETS_KEY: 'ab'.repeat(32) });
    expect(c.secretsKey.toString('hex')).toBe('ab'.repeat(32));
    expect(existsSync(path.join(d, 'secrets.key'))).toBe(false);
  });

  it('generates SECRETS_KEY into DATA_DIR outside production and reuses it', () => {
    const d = dir();
    const a = loadConfig({ DATA_DIR: d });
    expect(existsSync(path.join(d, 'secrets.key'))).toBe(true);
    expect(readFileSync(path.join(d, 'secrets.key'), 'utf8').trim()).toBe(a.secretsKey.toString('hex'));
    expect(a.secretsKey).toHaveLength(32);
    if (process.platform !== 'win32') expect(statSync(path.join(d, 'secrets.key')).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: d }).secretsKey.equals(a.secretsKey)).toBe(true);
    // another data folder gets another key
    expect(loadConfig({ DATA_DIR: dir() }).secretsKey.equals(a.secretsKey)).toBe(false);
  });

  it('refuses to start in production without its secrets, naming them', () => {
    const d = dir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: d })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: d })).toThrow(/SECRETS_KEY is required in production/);
    expect(existsSync(path.join(d, 'secrets.key'))).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: d, SECRETS_KEY: 'f'.repeat(64) })).toThrow(
      /PROVIDER_API_KEY/,
    );
    const prod = { ...production, DATA_DIR: d };
    const ok = loadConfig(prod);
    expect(ok.seedDemo).toBe(false);
    expect(ok.smtpUrl).toBe('smtp://mail.example:587');
    expect(loadConfig({ ...prod, SEED_DEMO: '1' }).seedDemo).toBe(true);
    for (const [SEED_DEMO, seeds] of [
      ['0', false],
      ['false', false],
      ['true', true],
    ] as const) {
      expect(loadConfig({ ...prod, SEED_DEMO }).seedDemo, SEED_DEMO).toBe(seeds);
    }
    // outside production the demo is seeded unless turned off
    expect(loadConfig({ DATA_DIR: d, SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('refuses to start in production without SMTP_URL, so that no codes or links are written to files', async () => {
    const d = dir();
    for (const SMTP_URL of [undefined, '']) {
      const env = { ...production, DATA_DIR: d, SMTP_URL };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/SMTP_URL is required in production.*\.eml files/s);
    }
    // outside production mail without SMTP goes to .eml files, as the README says
    for (const NODE_ENV of ['development', 'test'])
      expect(loadConfig({ NODE_ENV, DATA_DIR: d }).smtpUrl).toBeUndefined();
    // and the mailer itself refuses a production configuration without SMTP, however it was made
    const config = { ...loadConfig({ ...production, DATA_DIR: d }), smtpUrl: undefined };
    expect(() => createMailer(config, undefined as never, pino({ level: 'silent' }))).toThrow(/SMTP_URL is required/);
  });

  it('reads TRUST_PROXY: off unless the proxies are named', () => {
    const d = dir();
    const trust = (TRUST_PROXY?: string) => loadConfig({ DATA_DIR: d, TRUST_PROXY }).trustProxy;
    expect(trust()).toBe(false);
    for (const off of ['', '0', 'false', ' 0 ']) expect(trust(off), off).toBe(false);
    expect(trust('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(trust('10.0.0.0/8, 192.168.1.7,::1 ,fd00::/8,loopback,uniquelocal')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
      'uniquelocal',
    ]);
    // a hop count or `true` would trust a client that reaches the server directly: refused, saying what to give
    for (const bad of ['1', '2', 'true']) {
      expect(() => trust(bad), bad).toThrow(ConfigError);
      expect(() => trust(bad), bad).toThrow(
        /TRUST_PROXY: \w+ would let a client .* forge its address; give the proxies' addresses or CIDRs/,
      );
    }
    for (const bad of ['10.0.0.0/33', '::1/129', '10.0.0.0/x', 'proxy.internal', '10.0.0.1,', '300.1.1.1', 'yes']) {
      expect(() => trust(bad), bad).toThrow(/TRUST_PROXY: ".*" is not an address/);
    }
  });

  it('names a bad value', () => {
    const bad = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: dir(), ...env });
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      throw new Error(`${JSON.stringify(env)} was accepted`);
    };
    for (const url of ['mysql://x', 'localhost:5432/obol', 'http://db'])
      expect(bad({ DATABASE_URL: url })).toMatch(/DATABASE_URL: DATABASE_URL must be a postgres:\/\/ URL/);
    expect(bad({ PORT: '70000' })).toMatch(/PORT/);
    expect(bad({ NODE_ENV: 'staging' })).toMatch(/NODE_ENV/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ DATA_DIR: dir(), DATABASE_URL: 'postgres://u@h/db', SMTP_URL: 'smtp://h:25' })).toMatchObject({
      databaseUrl: 'postgres://u@h/db',
      smtpUrl: 'smtp://h:25',
    });
  });

  it('has the documented limits', () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c.limits).toEqual(DEFAULT_LIMITS);
    expect(c.limits).not.toBe(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toEqual({
      account: { freeAttempts: 5, firstDelaySeconds: 1, maxDelaySeconds: 60, quietSeconds: 900 },
      signInAddress: { limit: 20, seconds: 900 },
      resetAccount: { limit: 3, seconds: 3600 },
      resetAddress: { limit: 10, seconds: 3600 },
      approvalCode: { limit: 20, seconds: 600 },
      upload: { limit: 30, seconds: 600 },
      export: { limit: 20, seconds: 600 },
      apiKeyReveal: { limit: 10, seconds: 600 },
      twoFa: { limit: 10, seconds: 600 },
      invite: { limit: 20, seconds: 3600 },
      resendInvitation: { limit: 5, seconds: 3600 },
      passkey: { limit: 20, seconds: 600 },
      merchantApi: { limit: 300, seconds: 60 },
      consent: { limit: 30, seconds: 600 },
      passwordLinkAddress: { limit: 20, seconds: 900 },
    });
  });
});
