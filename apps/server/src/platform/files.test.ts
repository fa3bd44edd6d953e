import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
// @ts-expect-error -- the fork ships no types; its API is S3rver 3's (new S3rver(options).run(), .close())
import S3rver from '@20minutes/s3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { localFileStore, s3FileStore, createFileStore, type FileStore } from './files.ts';

async function roundTrip(store: FileStore, key: string, content: string) {
  const f = await store.create(key);
  for (let i = 0; i < content.length; i += 65_536) f.stream.write(content.slice(i, i + 65_536));
  const size = await f.commit();
  return { size, back: await text((await store.open(key)) as Readable) };
}

describe('the local file store', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'obol-files-'));
  const store = localFileStore(root);

  it('writes beside the place and renames in on commit, so a half-written file is never served', async () => {
    const f = await store.create('exports/2026/11/a.csv');
    f.stream.write('half');
    await expect(store.open('exports/2026/11/a.csv')).rejects.toThrow();
    const size = await f.commit();
    expect(size).toBe(4);
    expect(await text(await store.open('exports/2026/11/a.csv'))).toBe('half');
    const g = await store.create('exports/2026/11/b.csv');
    g.stream.write('gone');
    await g.abort();
    expect(readdirSync(path.join(root, 'exports/2026/11'))).toEqual(['a.csv']);
    await store.remove('exports/2026/11/a.csv');
    await expect(store.open('exports/2026/11/a.csv')).rejects.toThrow();
  });

  it('refuses keys that leave its folder', async () => {
    for (const k of ['../x.csv', '/etc/passwd', 'a/../../x', ''])
      await expect(store.create(k)).rejects.toThrow(/unsafe/);
  });
});

describe('the S3 file store', () => {
  // a maintained S3-compatible test server (s3rver), keeping its objects as files under a temporary folder
  const directory = mkdtempSync(path.join(tmpdir(), 'obol-s3-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'obol' }],
  });
  const stored = (key: string) => existsSync(path.join(directory, 'obol', `${key}._S3rver_object`));
  let endpoint = '';
  beforeAll(async () => {
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(() => s3.close());
  const options = () => ({
    bucket: 'obol',
    region: 'us-east-1',
    endpoint,
    accessKeyId: 'S3RVER', // s3rver's own key pair: it checks each request's signature
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix: 'files/',
  });
  const store = () => s3FileStore(options());

  it('uploads a small file and reads it back', async () => {
    const r = await roundTrip(store(), 'exports/a.csv', 'a,b\r\n1,2\r\n');
    expect(r).toEqual({ size: 10, back: 'a,b\r\n1,2\r\n' });
    expect(stored('files/exports/a.csv')).toBe(true);
  });

  it('streams a large file up in parts', async () => {
    const big = 'x'.repeat(12 * 1024 * 1024 + 17);
    const r = await roundTrip(store(), 'exports/big.csv', big);
    expect(r.size).toBe(big.length);
    expect(r.back.length).toBe(big.length);
  });

  it('leaves nothing behind when aborted, and deletes', async () => {
    const f = await store().create('exports/c.csv');
    f.stream.write('never');
    await f.abort();
    expect(stored('files/exports/c.csv')).toBe(false);
    await store().remove('exports/a.csv');
    await expect(store().open('exports/a.csv')).rejects.toThrow();
  });

  it('signs its requests: a wrong secret is refused', async () => {
    const wrong = s3FileStore({ ...options(), secretAccessKey: 'not-the-secret' });
    await expect(roundTrip(wrong, 'exports/d.csv', 'x')).rejects.toThrow(/signature/i);
    expect(stored('files/exports/d.csv')).toBe(false);
  });

  it('is chosen by S3_BUCKET, path-style when an endpoint is given', () => {
    const c = loadConfig({ NODE_ENV: 'test', DATA_DIR: tmpdir(), S3_BUCKET: 'obol', S3_ENDPOINT: endpoint });
    expect(c.s3).toMatchObject({ bucket: 'obol', endpoint, forcePathStyle: true, prefix: '' });
    expect(createFileStore(c).kind).toBe('s3');
    expect(createFileStore(loadConfig({ NODE_ENV: 'test', DATA_DIR: tmpdir() })).kind).toBe('local');
    expect(() => loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
  });
});
