import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Hashed build output (Vite writes every hashed file under assets/): the name changes when the content does. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html, the SPA fallback and unhashed files (favicon): revalidate every time (the ETag makes it cheap). */
export const REVALIDATE = 'no-cache';

/** Files a browser asks for by name: a miss answers 404, never the SPA's index.html. */
const FILE_EXTENSION =
  /\.(js|mjs|cjs|css|map|json|ico|png|jpe?g|gif|webp|avif|svg|woff2?|ttf|otf|txt|xml|html|webmanifest|wasm)$/i;

/**
 * Compression by Accept-Encoding (brotli, then gzip) of every compressible answer (by its content type: the
 * API's JSON, the API document, web app files that have no precompressed .br/.gz beside them) of the routes
 * declared after this call (Fastify applies a plugin's hooks to the routes declared after it). Not downloads:
 * `route()` turns it off for an operation whose answer is a file, which streams as it is read (brotli and gzip
 * would hold its first bytes back) and keeps its length for the browser's progress bar.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    globalCompression: true,
    // request bodies are taken as sent: no inflating of a gzip upload past the body limit's intent
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
  });
}

/** The built web app is served when its folder has an index.html, or when asked. */
export function shouldServeWeb(webDist: string, serveWeb: boolean | undefined): boolean {
  return serveWeb ?? existsSync(path.join(webDist, 'index.html'));
}

/**
 * Serves the built web app: the .br/.gz written beside each file at build time when the browser accepts them
 * (the build precompresses; a file without them is compressed on the fly), hashed assets cached for a year,
 * everything else revalidated.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      const rel = path.relative(webDist, file).split(path.sep).join('/');
      reply.header('cache-control', rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    },
  });
}

/**
 * Whether a URL that matched no route should get the SPA's index.html: a GET outside /api whose path does not
 * name a file (/assets/... or a known file extension; a password link's e-mail in the path is not a file).
 */
export function isAppPage(method: string, url: string): boolean {
  if (method !== 'GET') return false;
  const pathname = url.split('?')[0];
  if (pathname === '/api' || pathname.startsWith('/api/')) return false;
  if (pathname.startsWith('/assets/')) return false;
  return !FILE_EXTENSION.test(pathname);
}
