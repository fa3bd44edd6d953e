import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { userIdByEmail } from '../../seed.ts';
import { holderReference } from '../ledger/accounts.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
const token = async (who: string) => (tokens[who] ??= await t.signIn(`${who}@obol.example`));
const list = async (who: string, body: Record<string, unknown> = {}) => t.post('/api/brands', body, await token(who));
type Row = { id: number; name: string; email: string; parent: { id: number }; account_reference: string | null };

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the Brands list (/api/brands)', () => {
  it('shows staff every brand with its merchant, account reference and verification, 10 a page', async () => {
    const r = await list('admin');
    expect(r.status).toBe(200);
    const rows = r.body.brands.data as Row[];
    const brand = (await userIdByEmail(t.deps.db, 'brand@obol.example'))!;
    const brand2 = (await userIdByEmail(t.deps.db, 'brand2@obol.example'))!;
    expect(rows.map((b) => b.id)).toEqual(expect.arrayContaining([brand, brand2]));
    const mine = rows.find((b) => b.id === brand)!;
    expect(mine).toMatchObject({
      email: 'brand@obol.example',
      parent: { id: (await userIdByEmail(t.deps.db, 'merchant@obol.example'))! },
      account_reference: holderReference(brand),
      remember_token_status: 'Verified',
      is_active: '1',
    });
    expect(r.body.brands.total).toBe(rows.length);
    expect(r.body.count).toBe(r.body.active + r.body.inactive);
    expect(r.body.count).toBeGreaterThanOrEqual(2);
    // never a merchant or any other user
    expect(rows.every((b) => b.email.startsWith('brand'))).toBe(true);
  });

  it('keeps a merchant to its own brands, and searches by name literally', async () => {
    const r = await list('merchant');
    expect(r.status).toBe(200);
    const ids = (r.body.brands.data as Row[]).map((b) => b.id);
    expect(ids).toContain((await userIdByEmail(t.deps.db, 'brand@obol.example'))!);
    expect(ids).not.toContain((await userIdByEmail(t.deps.db, 'brand2@obol.example'))!);
    expect(r.body.count).toBe(ids.length);

    const all = (await list('admin')).body;
    const first = (all.brands.data as Row[])[0];
    const found = await list('admin', { name: first.name.slice(1, 5).toUpperCase() });
    expect((found.body.brands.data as Row[]).map((b) => b.id)).toContain(first.id);
    // the counters stay those of the whole scope
    expect(found.body.count).toBe(all.count);
    // LIKE's wildcards are plain characters
    expect((await list('admin', { name: '%' })).body.brands.total).toBe(0);
    expect((await list('admin', { name: '_' })).body.brands.total).toBe(0);
  });

  it('pages on the server', async () => {
    const all = await list('admin', { per_page: 100 });
    const one = await list('admin', { per_page: 1, page: 2 });
    expect(one.body.brands.data).toHaveLength(1);
    expect(one.body.brands.data[0].id).toBe(all.body.brands.data[1].id);
    expect(one.body.brands.total).toBe(all.body.brands.total);
  });

  it('refuses a caller without the permission and bad paging, naming the field', async () => {
    expect((await list('brand')).status).toBe(403);
    expect((await list('reviewer')).status).toBe(403);
    for (const [field, value] of [
      ['page', 0],
      ['per_page', 1e6],
      ['page', 'x'],
    ] as const) {
      const r = await list('admin', { [field]: value });
      expect(r.status, `${field}=${value}`).toBe(400);
      expect(JSON.stringify(r.body)).toContain(field);
    }
    expect((await list('admin', { name: 'x'.repeat(101) })).status).toBe(400);
  });
});
