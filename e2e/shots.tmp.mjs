import { chromium } from 'playwright-core';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
const BASE = 'http://127.0.0.1:3555', DIR = '/tmp/obol-look/mail';
const decode = (raw) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
async function code(email, since) {
  for (let i = 0; i < 50; i++) {
    const files = readdirSync(DIR).filter((f) => f.endsWith(`-${email}.eml`)).map((f) => path.join(DIR, f)).filter((f) => statSync(f).mtimeMs >= since - 5).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const f of files) { const m = / is (\d{6})\./.exec(decode(readFileSync(f, 'utf8'))); if (m) return m[1]; }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no code');
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const [email, pages] = [process.argv[2], process.argv.slice(3)];
for (const scheme of ['light', 'dark']) for (const [w, h, tag] of [[1366, 900, 'wide'], [390, 844, 'phone']]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme, baseURL: BASE });
  const page = await ctx.newPage();
  await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Obol@2026');
  await page.getByLabel('E-mail code').check();
  const since = Date.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/signin/authentication');
  await page.getByLabel('Code', { exact: true }).fill(await code(email, since));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/signin'));
  for (const p of pages) {
    await page.goto(p); await page.waitForTimeout(1500);
    const sw = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    const name = `/tmp/shots/${email.split('@')[0]}${p.replace(/[/%]/g, '_')}-${tag}-${scheme}.png`;
    await page.screenshot({ path: name, fullPage: true });
    console.log(name, sw ? 'SIDEWAYS' : '');
  }
  await ctx.close();
}
await browser.close();
