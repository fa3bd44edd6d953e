import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { openApiDocument } from './openapi.ts';

const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// no inline script (the Content-Security-Policy allows none): the page loads the bundle and init.js
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Obol API</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
    <link rel="icon" href="/api/docs/favicon-32x32.png" />
  </head>
  <body>
    <main id="swagger-ui"></main>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
});
`;

/**
 * The API's own description: the OpenAPI 3.1 document made from the contract's operation table at
 * /api/openapi.json, and an interactive reference (Swagger UI, served from its npm package) at /api/docs.
 */
export function apiDocsRoutes(app: FastifyInstance, config: Config, version: string) {
  const document = openApiDocument({ serverUrl: config.publicUrl, version });
  app.get('/api/openapi.json', async (_req, reply) => reply.header('cache-control', 'no-cache').send(document));
  app.get('/api/docs', async (_req, reply) => reply.redirect('/api/docs/'));
  app.get('/api/docs/', async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/api/docs/init.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(INIT));
  app.get('/api/docs/:asset', async (req, reply) => {
    const name = (req.params as { asset: string }).asset;
    const type = ASSETS[name];
    if (!type) return reply.status(404).send({ error: [`No route GET ${req.url}`] });
    return reply
      .type(type)
      .header('cache-control', 'public, max-age=86400')
      .send(await readFile(path.join(SWAGGER_DIR, name)));
  });
}
