import { operation, type Permission } from '@obol/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, notFound } from './errors.ts';
import { route, type AuthContext } from './http.ts';

// route()'s speculative reads on a bare Fastify app: the request's own session check is a promise the test settles
const VIEW: Permission = 'User can view transactions';
const readOp = operation({
  id: 'testRead',
  method: 'POST',
  path: '/api/test-read',
  tag: 'Test',
  summary: 'a read',
  access: VIEW,
  input: z.object({ missing: z.boolean().default(false) }),
  output: z.object({ seen: z.string() }),
});

const authOf = (name: string, perms: Permission[] = [VIEW], sessionId = 1): AuthContext => ({
  user: { id: 7, name, email: 'm@obol.example', role: 'Merchant', parentId: null, twoFaAsOtp: false },
  sessionId,
  sessionExpiresAt: 1_900_000_000_000,
  permissions: new Set(perms),
  scope: { kind: 'merchant', merchantId: 7 },
});

let app: FastifyInstance;
afterEach(async () => {
  await app?.close();
});

/**
 * An app whose one read starts on `last` (the token's last known authority) while its check is held open; the
 * handler records the authority it ran on and when.
 */
async function speculating(last: AuthContext) {
  let settle!: (auth: AuthContext | null) => void;
  const check = new Promise<AuthContext | null>((resolve) => (settle = resolve));
  const runs: { on: string; checked: boolean }[] = [];
  let checked = false;
  void check.then(() => (checked = true));
  app = Fastify();
  app.decorateRequest('auth', null);
  app.decorateRequest('audit', null as never);
  app.decorateRequest('authCheck', null);
  app.addHook('onRequest', (req, _reply, done) => {
    req.audit = {};
    if (req.routeOptions.config?.speculative) {
      req.auth = last;
      req.authCheck = check;
    }
    done();
  });
  app.setErrorHandler((err, _req, reply) =>
    err instanceof ApiError ? reply.status(err.status).send(err.body()) : reply.status(500).send({ error: ['boom'] }),
  );
  route(
    app,
    readOp,
    ({ auth, input }) => {
      runs.push({ on: auth.user.name, checked });
      if (input.missing) throw notFound();
      return { seen: auth.user.name };
    },
    { speculative: true },
  );
  await app.ready();
  const answer = app.inject({ method: 'POST', url: '/api/test-read', payload: {} });
  return { settle, runs, answer, app };
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('a speculative read', () => {
  it('starts before its session check ends and answers once the check confirms the same authority', async () => {
    const s = await speculating(authOf('Acme'));
    let answered = false;
    void s.answer.then(() => (answered = true));
    await until(() => s.runs.length > 0);
    expect(s.runs).toEqual([{ on: 'Acme', checked: false }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(false); // nothing leaves before the check
    s.settle(authOf('Acme')); // a new object, the same authority
    const r = await s.answer;
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ seen: 'Acme' });
    expect(s.runs).toHaveLength(1);
  });

  it('answers 401, and nothing it read, when the session ended meanwhile', async () => {
    const s = await speculating(authOf('Acme'));
    await until(() => s.runs.length > 0);
    s.settle(null);
    const r = await s.answer;
    expect(r.statusCode).toBe(401);
    expect(r.body).not.toContain('Acme');
  });

  it('runs again on the new authority when the user or the session changed', async () => {
    for (const now of [authOf('Acme Renamed'), authOf('Acme', [VIEW], 2)]) {
      const s = await speculating(authOf('Acme'));
      await until(() => s.runs.length > 0);
      s.settle(now);
      const r = await s.answer;
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ seen: now.user.name });
      expect(s.runs).toEqual([
        { on: 'Acme', checked: false },
        { on: now.user.name, checked: true },
      ]);
      await s.app.close();
    }
  });

  it('is refused (403) when the permission was taken away meanwhile', async () => {
    const s = await speculating(authOf('Acme'));
    await until(() => s.runs.length > 0);
    s.settle(authOf('Acme', []));
    const r = await s.answer;
    expect(r.statusCode).toBe(403);
    expect(s.runs).toHaveLength(1);
  });

  it('waits for its check before a refusal: a permission granted meanwhile is honoured', async () => {
    const s = await speculating(authOf('Acme', []));
    await new Promise((r) => setTimeout(r, 20));
    expect(s.runs).toEqual([]); // the last known authority would be refused: nothing runs on it
    s.settle(authOf('Acme'));
    const r = await s.answer;
    expect(r.statusCode).toBe(200);
    expect(s.runs).toEqual([{ on: 'Acme', checked: true }]);
  });

  it("answers the check's verdict, not the speculative run's error", async () => {
    const s = await speculating(authOf('Acme'));
    const missing = app.inject({ method: 'POST', url: '/api/test-read', payload: { missing: true } });
    await until(() => s.runs.length > 1);
    s.settle(null);
    expect((await missing).statusCode).toBe(401);
    expect((await s.answer).statusCode).toBe(401);
  });

  it('is refused at declaration for a command or a file', () => {
    const command = operation({ ...readOp, id: 'testCommand', audit: 'test' });
    const file = operation({ ...readOp, id: 'testFile', output: { file: ['text/csv'] } });
    const bare = Fastify();
    for (const op of [command, file])
      expect(() => route(bare, op, () => undefined as never, { speculative: true })).toThrow(/only a JSON read/);
  });
});
