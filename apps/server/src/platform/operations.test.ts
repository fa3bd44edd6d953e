import { compileErrors, validate } from '@readme/openapi-parser';
import { isFileAnswer, OPERATIONS } from '@obol/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

// The contract's operation table is the API: every route the server declares serves one operation (with its
// access rule and answer schema), every operation has its route, and the OpenAPI document says the same.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The API's own description is not an operation of it. */
const DESCRIBES_THE_API = /^\/api\/(openapi\.json|docs(\/.*)?)$/;
const apiRoutes = () =>
  t.routes.filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api') && !DESCRIBES_THE_API.test(r.url));

describe('the route table', () => {
  it('has an operation, an access rule and an answer schema for every route', () => {
    const missing = apiRoutes()
      .filter((r) => !r.operation || !r.access || !r.operation.output)
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    for (const r of apiRoutes()) {
      expect(r.operation!.method, r.url).toBe(r.method);
      expect(r.operation!.path, r.url).toBe(r.url);
      expect(r.access, r.url).toEqual(r.operation!.access);
    }
  });

  it('serves every operation of the contract once, and nothing else', () => {
    const served = apiRoutes().map((r) => `${r.method} ${r.url}`);
    const declared = OPERATIONS.map((o) => `${o.method} ${o.path}`);
    expect([...served].sort()).toEqual([...declared].sort());
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(OPERATIONS.length);
  });
});

describe('the API document', () => {
  it('is valid OpenAPI 3.1, with every operation and nothing else', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    if (!result.valid) throw new Error(compileErrors(result));
    const inDoc = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods).map(
          ([m, o]) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')} ${o.operationId}`,
        ),
    );
    expect(inDoc.sort()).toEqual(OPERATIONS.map((o) => `${o.method} ${o.path} ${o.id}`).sort());
    for (const op of OPERATIONS) {
      const entry = doc.paths[op.path.replace(/:(\w+)/g, '{$1}')][op.method.toLowerCase()];
      const ok = entry.responses[String(op.status ?? 200)];
      expect(Object.keys(ok.content), op.id).toEqual(isFileAnswer(op.output) ? op.output.file : ['application/json']);
    }
  });

  it('describes the merchant API: the API key header, the token, and examples of the pay-in link', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const token = doc.paths['/api/token'].post;
    expect(token.security).toEqual([{ apiKey: [] }]);
    expect(token.responses['401']).toBeDefined();
    const link = doc.paths['/api/create-payin-link'].post;
    expect(link.security).toEqual([{ merchantToken: [] }]);
    expect(link.requestBody.content['application/json'].example).toMatchObject({
      amount: 2599,
      reference: 'order-10042',
    });
    expect(link.responses['201'].content['application/json'].example.url).toMatch(/\/pay\//);
    expect(link.responses['403']).toBeUndefined();
  });

  it('is shown at /api/docs, scripts from files only', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/api/docs/swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js']) {
      const r = await t.app.inject({ method: 'GET', url: `/api/docs/${asset}` });
      expect(r.statusCode, asset).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/../package.json' })).statusCode).not.toBe(200);
  });
});
