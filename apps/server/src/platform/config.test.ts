import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
    expect(loadConfig({}).dataDir).toBe(path.resolve('./data'));
  });

  it('generates SECRETS_KEY into DATA_DIR outside production and reuses it', () => {
    const d = dir();
    const a = loadConfig({ DATA_DIR: d });
    expect(existsSync(path.join(d, 'secrets.key'))).toBe(true);
    expect(readFileSync(path.join(d, 'secrets.key'), 'utf8').trim()).toBe(a.secretsKey.toString('hex'));
    expect(loadConfig({ DATA_DIR: d }).secretsKey.equals(a.secretsKey)).toBe(true);
  });

  it('refuses to start in production without its secrets, naming them', () => {
    const d = dir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: d })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: d })).toThrow(/SECRETS_KEY/);
    expect(existsSync(path.join(d, 'secrets.key'))).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: d, SECRETS_KEY: 'f'.repeat(64) })).toThrow(
      /PROVIDER_API_KEY/,
    );
    const ok = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: d,
      SECRETS_KEY: 'f'.repeat(64),
      PROVIDER_API_KEY: 'k'.repeat(16),
      PROVIDER_WEBHOOK_SECRET: 's'.repeat(16),
    });
    expect(ok.seedDemo).toBe(false);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: d,
        SECRETS_KEY: 'f'.repeat(64),
        PROVIDER_API_KEY: 'k'.repeat(16),
        PROVIDER_WEBHOOK_SECRET: 's'.repeat(16),
        SEED_DEMO: '1',
      }).seedDemo,
    ).toBe(true);
  });

  it('names a bad value', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ DATA_DIR: dir(), DATABASE_URL: 'postgres://u@h/db', SMTP_URL: 'smtp://h:25' })).toMatchObject({
      databaseUrl: 'postgres://u@h/db',
      smtpUrl: 'smtp://h:25',
    });
  });
});
