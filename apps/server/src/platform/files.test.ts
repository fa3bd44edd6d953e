import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { localFileStore, s3FileStore, createFileStore, type FileStore } from './files.ts';

/**
 * A small S3-compatible server (path-style: PutObject, multipart upload, GetObject, DeleteObject), enough
 * to prove the S3 file store speaks the protocol; signatures are not checked.
 */
function fakeS3() {
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, Map<number, Buffer>>();
  let uploadSeq = 0;
  const decode = (body: Buffer, headers: Record<string, unknown>) => {
    // aws-chunked bodies: <hex size>[;chunk-signature=...]\r\n<data>\r\n ... 0\r\n<trailers>\r\n\r\n
    if (
      !String(headers['content-encoding'] ?? '').includes('aws-chunked') &&
      !String(headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING')
    )
      return body;
    const parts: Buffer[] = [];
    let i = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', i);
      const size = parseInt(body.subarray(i, eol).toString().split(';')[0], 16);
      if (!size) break;
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      i = eol + 2 + size + 2;
    }
    return Buffer.concat(parts);
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    const key = decodeURIComponent(url.pathname.slice(1));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = decode(Buffer.concat(chunks), req.headers);
    const q = url.searchParams;
    const xml = (s: string) =>
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>${s}`);
    if (req.method === 'POST' && q.has('uploads')) {
      const id = `u${++uploadSeq}`;
      uploads.set(id, new Map());
      return xml(
        `<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (req.method === 'PUT' && q.has('uploadId')) {
      uploads.get(q.get('uploadId')!)!.set(Number(q.get('partNumber')), body);
      return res.writeHead(200, { etag: `"p${q.get('partNumber')}"` }).end();
    }
    if (req.method === 'POST' && q.has('uploadId')) {
      const parts = uploads.get(q.get('uploadId')!)!;
      objects.set(key, Buffer.concat([...parts.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1])));
      uploads.delete(q.get('uploadId')!);
      return xml(
        `<CompleteMultipartUploadResult><Bucket>b</Bucket><Key>${key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`,
      );
    }
    if (req.method === 'DELETE' && q.has('uploadId')) {
      uploads.delete(q.get('uploadId')!);
      return res.writeHead(204).end();
    }
    if (req.method === 'PUT') {
      objects.set(key, body);
      return res.writeHead(200, { etag: '"one"' }).end();
    }
    if (req.method === 'GET' && objects.has(key)) {
      const o = objects.get(key)!;
      return res.writeHead(200, { 'content-length': o.length, 'content-type': 'application/octet-stream' }).end(o);
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      return res.writeHead(204).end();
    }
    res
      .writeHead(404, { 'content-type': 'application/xml' })
      .end('<Error><Code>NoSuchKey</Code><Message>none</Message></Error>');
  });
  return { server, objects, uploads };
}

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
  const s3 = fakeS3();
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((r) => s3.server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(s3.server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => s3.server.close(() => r())));
  const store = () =>
    s3FileStore({
      bucket: 'obol',
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      prefix: 'files/',
    });

  it('uploads a small file and reads it back', async () => {
    const r = await roundTrip(store(), 'exports/a.csv', 'a,b\r\n1,2\r\n');
    expect(r).toEqual({ size: 10, back: 'a,b\r\n1,2\r\n' });
    expect([...s3.objects.keys()]).toContain('obol/files/exports/a.csv');
  });

  it('streams a large file up in parts', async () => {
    const big = 'x'.repeat(12 * 1024 * 1024 + 17);
    const r = await roundTrip(store(), 'exports/big.csv', big);
    expect(r.size).toBe(big.length);
    expect(r.back.length).toBe(big.length);
    expect(s3.uploads.size).toBe(0);
  });

  it('leaves nothing behind when aborted, and deletes', async () => {
    const f = await store().create('exports/c.csv');
    f.stream.write('never');
    await f.abort();
    expect(s3.objects.has('obol/files/exports/c.csv')).toBe(false);
    await store().remove('exports/a.csv');
    await expect(store().open('exports/a.csv')).rejects.toThrow();
  });

  it('is chosen by S3_BUCKET, path-style when an endpoint is given', () => {
    const c = loadConfig({ NODE_ENV: 'test', DATA_DIR: tmpdir(), S3_BUCKET: 'obol', S3_ENDPOINT: endpoint });
    expect(c.s3).toMatchObject({ bucket: 'obol', endpoint, forcePathStyle: true, prefix: '' });
    expect(createFileStore(c).kind).toBe('s3');
    expect(createFileStore(loadConfig({ NODE_ENV: 'test', DATA_DIR: tmpdir() })).kind).toBe('local');
    expect(() => loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
  });
});
