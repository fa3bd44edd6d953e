import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { operation } from '@obol/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { CONTENT_SECURITY_POLICY } from './headers.ts';
import { route } from './http.ts';
import { IMMUTABLE, isAppPage } from './web.ts';

/** a download like downloadOps.downloadFile (whose file needs an export job to exist), open to anyone */
const testDownload = operation({
  id: 'testDownload',
  method: 'GET',
  path: '/api/test-download',
  tag: 'Test',
  summary: 'A CSV written slowly',
  access: 'public',
  output: { file: ['text/csv'] },
});

/** a built web app: index.html, a hashed script precompressed beside it, one without, a favicon */
const webDist = mkdtempSync(path.join(tmpdir(), 'obol-web-'));
mkdirSync(path.join(webDist, 'assets'));
const html = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const script = `export const greeting = ${JSON.stringify('obol '.repeat(2000))};\n`;
const precompressed = (rel: string, content: string) => {
  writeFileSync(path.join(webDist, rel), content);
  writeFileSync(path.join(webDist, `${rel}.br`), brotliCompressSync(content));
  writeFileSync(path.join(webDist, `${rel}.gz`), gzipSync(content));
};
precompressed('index.html', html);
precompressed('assets/index-AbC123.js', script);
writeFileSync(path.join(webDist, 'assets/vendor-XyZ789.js'), script); // no .br/.gz: compressed on the fly
writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

/** the download test's producer waits for this before sending the rest */
let firstChunkSeen: () => void = () => undefined;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    {},
    {
      webDist,
      listen: true,
      beforeReady: (app) => {
        app.get('/api/test-large', async () => ({ rows: Array.from({ length: 500 }, (_, i) => ({ id: i, n: 'x' })) }));
        route(app, testDownload, async ({ reply }) => {
          const seen = new Promise<void>((resolve) => (firstChunkSeen = resolve));
          async function* rows() {
            yield 'id,name\n' + '1,first\n'.repeat(2000);
            await seen; // a buffered answer never reaches the client, so this never resolves
            yield '2,second\n'.repeat(2000);
          }
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', 'attachment; filename="x.csv"')
            .send(Readable.from(rows()));
        });
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('compression by Accept-Encoding', () => {
  it('the API answers JSON in brotli, gzip or plain as the client accepts', async () => {
    const plain = await get('/api/test-large');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('/api/test-large', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    const gz = await get('/api/test-large', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('small answers are sent as they are', async () => {
    const res = await get('/api/health', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('a script is sent from its precompressed .br or .gz, or plain', async () => {
    const br = await get('/assets/index-AbC123.js', 'br, gzip');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await get('/assets/index-AbC123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(script);
  });

  it('a script without precompressed files is compressed on the fly', async () => {
    const br = await get('/assets/vendor-XyZ789.js', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
  });

  it('the page and its fallback are compressed too, and keep the security headers', async () => {
    for (const url of ['/', '/payments/batches']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
    }
  });

  it('a download is not compressed and streams: its first rows arrive before the rest is produced', async () => {
    const res = await fetch(`${t.address}/api/test-download`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^id,name\n1,first\n/);
    firstChunkSeen();
    let text = new TextDecoder().decode(first.value);
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
    expect(text.split('\n').filter(Boolean)).toHaveLength(4001);
  });
});

describe('cache headers', () => {
  it('hashed assets are cached for a year, immutable, in every encoding', async () => {
    for (const enc of [undefined, 'br', 'gzip']) {
      expect((await get('/assets/index-AbC123.js', enc)).headers['cache-control'], enc).toBe(IMMUTABLE);
    }
    expect((await get('/assets/vendor-XyZ789.js', 'br')).headers['cache-control']).toBe(IMMUTABLE);
  });

  it('index.html, the fallback and unhashed files are revalidated every time', async () => {
    for (const url of ['/', '/index.html', '/signin', '/payments/batches?page=2', '/favicon.svg']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });
});

describe('missing files', () => {
  it('answer 404, never the page', async () => {
    for (const url of ['/favicon.ico', '/assets/missing.js', '/assets/missing', '/robots.txt', '/app.css.map']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).not.toMatch(/text\/html/);
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it('a page address with a dot (the password link carries an e-mail) is still the page', () => {
    expect(isAppPage('GET', '/new-password/tok/ada%40obol.example')).toBe(true);
    expect(isAppPage('GET', '/new-password/tok/a%40b.c')).toBe(true);
    expect(isAppPage('GET', '/payments?x=a.js')).toBe(true);
    expect(isAppPage('GET', '/assets/x.js')).toBe(false);
    expect(isAppPage('GET', '/api/nothing')).toBe(false);
    expect(isAppPage('POST', '/signin')).toBe(false);
  });
});

describe('request bodies', () => {
  it('a gzip-encoded body is not inflated', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: 'a@b.c', password: 'x' })),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: ['The request body is not valid JSON'] });
  });
});
