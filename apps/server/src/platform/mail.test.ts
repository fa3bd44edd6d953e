import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { rowsOf } from './db.ts';
import { mailOutbox } from '../schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the mail outbox', () => {
  it('keeps recipient, subject and template of a sign-in code, an approval code and a reset link, never a code or token', async () => {
    const first = t.mails.length;
    const merchant = await t.signIn('merchant@obol.example');
    expect((await t.post('/api/request-code', { amount: 1000, obol_id: '100000001' }, merchant)).status).toBe(200);
    expect((await t.post('/api/forgot-password', { email: 'merchant@obol.example' })).status).toBe(200);
    const sent = t.mails.slice(first);
    expect(sent.map((m) => m.template)).toEqual(['login-code', 'approval-code', 'password-reset']);

    // the secrets as the mails carried them: the two codes, the reset link and its token
    const link = /(https?:\/\/\S+\/new-password\/([^/\s]+)\/\S+)/.exec(sent[2].text)!;
    expect(link).toBeTruthy();
    const secrets = [sent[0].code!, sent[1].code!, link[1], link[2], decodeURIComponent(link[2])];
    for (const [i, s] of secrets.entries()) expect(s, `secret ${i}`).toMatch(/^\S{6,}$/);
    expect(sent[0].text).toContain(sent[0].code);
    expect(sent[1].text).toContain(sent[1].code);

    const rows = await t.deps.db.select().from(mailOutbox).orderBy(mailOutbox.id);
    expect(rows.slice(-3).map((r) => [r.to, r.template, r.status])).toEqual([
      ['merchant@obol.example', 'login-code', 'sent'],
      ['merchant@obol.example', 'approval-code', 'sent'],
      ['merchant@obol.example', 'password-reset', 'sent'],
    ]);
    expect(rows.slice(-3).map((r) => r.subject)).toEqual(sent.map((m) => m.subject));
    // every column of every row, as stored
    const raw = rowsOf<Record<string, unknown>>(await t.deps.db.execute(sql`SELECT * FROM mail_outbox`));
    expect(raw.length).toBe(rows.length);
    expect(Object.keys(raw[0]).sort()).toEqual(
      ['created_at', 'error', 'id', 'sent_at', 'status', 'subject', 'template', 'to'].sort(),
    );
    const stored = JSON.stringify(raw);
    for (const s of secrets) expect(stored).not.toContain(s);
  });
});
