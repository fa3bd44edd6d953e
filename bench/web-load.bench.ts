/**
 * The web app's first load in Chromium: for every built route, the Largest Contentful Paint and the JavaScript
 * bytes on the wire, on a cold cache (a fresh browser context) and a warm one (the same context, loaded again),
 * beside a baseline measured in the same run: a static HTML page of the same size as the sign-in page's
 * JavaScript, no script, served by the same server. Prints figures; never fails on a time.
 *
 *   npm run bench:web          (BENCH_REBUILD=1 rebuilds the web app first; it builds when dist is missing)
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { measure } from '../apps/web/tools/bundle-size.ts';
import { ensureBuilt, root, startStack } from '../e2e/lib/stack.ts';

const ADMIN = 'admin@obol.example';
const PASSWORD = 'Obol@2026';
const ROUTES = [
  '/payments',
  '/payout-transactions',
  '/batch-transactions',
  '/recent-batches',
  '/download-transactions',
  '/download-reports',
  '/users',
  '/user-profile',
];
const BASELINE = '/bench-baseline.html';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

interface Load {
  lcp: number;
  /** the HTML document's bytes transferred */
  docWire: number;
  jsWire: number;
  jsRaw: number;
  scripts: number;
}

// evaluated in the page (strings: the bench is type-checked without the DOM's types)
const READ_LCP = `new Promise((resolve) => {
  let lcp = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => resolve(lcp), 300);
})`;
const READ_JS = `performance.getEntriesByType('resource')
  .filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'))
  .reduce((s, e) => ({ wire: s.wire + e.transferSize, raw: s.raw + e.decodedBodySize, n: s.n + 1 }),
    { wire: 0, raw: 0, n: 0 })`;

const READ_DOC = `performance.getEntriesByType('navigation')[0]?.transferSize ?? 0`;

async function load(page: Page, url: string): Promise<Load> {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const lcp = (await page.evaluate(READ_LCP)) as number;
  const js = (await page.evaluate(READ_JS)) as { wire: number; raw: number; n: number };
  const docWire = (await page.evaluate(READ_DOC)) as number;
  return { lcp, docWire, jsWire: js.wire, jsRaw: js.raw, scripts: js.n };
}

/** cold: a new context (empty cache); warm: the same context again. The median of RUNS of each. */
async function measureRoute(newContext: () => Promise<BrowserContext>, url: string) {
  const cold: Load[] = [];
  const warm: Load[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await newContext();
    const page = await context.newPage();
    cold.push(await load(page, url));
    warm.push(await load(page, url));
    await context.close();
  }
  const median = (xs: Load[]) => [...xs].sort((a, b) => a.lcp - b.lcp)[Math.floor(xs.length / 2)];
  return { cold: median(cold), warm: median(warm) };
}

/**
 * A page of `size` bytes of text, no script: words picked by a fixed pseudo-random sequence, so that it
 * compresses about as much as prose does (repeating one paragraph would compress to nothing).
 */
function baselinePage(size: number): string {
  const words = 'obol pays out to many beneficiaries at once from a merchant account with fees and a report'.split(' ');
  let seed = 42;
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const sentence = Array.from({ length: 12 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const w = words[seed % words.length];
      return seed % 7 === 0 ? `${w}${seed % 1000}` : w;
    }).join(' ');
    parts.push(`<p>${sentence}.</p>`);
    length += sentence.length + 8;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baseline</title></head><body><h1>Baseline</h1>\n${parts.join('\n')}</body></html>`;
}

/** The one-time code of the newest mail to this address written after `since`. */
async function mailedCode(dataDir: string, email: string, since: number): Promise<string> {
  const dir = path.join(dataDir, 'mail');
  for (let i = 0; i < 100; i++) {
    try {
      for (const f of readdirSync(dir).filter((n) => n.endsWith(`-${email}.eml`))) {
        const file = path.join(dir, f);
        if (statSync(file).mtimeMs < since - 5) continue;
        const m = / is (\d{6})\./.exec(readFileSync(file, 'utf8').replace(/=\r?\n/g, ''));
        if (m) return m[1];
      }
    } catch {
      /* no mail yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${email}`);
}

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const ms = (n: number) => `${Math.round(n)} ms`;

async function main() {
  ensureBuilt(process.env.BENCH_REBUILD === '1');
  // the baseline: static HTML as large as the sign-in page's JavaScript, no script, from the same server (written
  // before the server starts: it serves the files it finds then)
  const dist = path.join(root, 'apps/web/dist');
  const size = measure(dist).signIn.raw;
  const html = baselinePage(size);
  writeFileSync(path.join(dist, BASELINE), html);
  const stack = await startStack();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    const viewport = { width: 1366, height: 900 };
    const fresh = () => browser.newContext({ baseURL: stack.baseUrl, viewport });

    // sign in once through the pages; every signed-in context starts from its storage (the session token)
    const signIn = await fresh();
    const page = await signIn.newPage();
    await page.goto('/signin');
    await page.getByLabel('Email', { exact: true }).fill(ADMIN);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('E-mail code').check();
    const since = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/signin/authentication');
    await page.getByLabel('Code', { exact: true }).fill(await mailedCode(stack.dataDir, ADMIN, since));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/signin'));
    const storageState = await signIn.storageState();
    await signIn.close();
    const signedIn = () => browser.newContext({ baseURL: stack.baseUrl, viewport, storageState });

    const rows: [string, { cold: Load; warm: Load }][] = [];
    rows.push(['/signin (signed out)', await measureRoute(fresh, '/signin')]);
    rows.push([`${BASELINE} (baseline, ${kB(html.length)} HTML)`, await measureRoute(fresh, BASELINE)]);

    for (const url of ROUTES) rows.push([url, await measureRoute(signedIn, url)]);

    const header = [
      'route',
      'LCP cold',
      'LCP warm',
      'HTML wire',
      'JS cold wire',
      'JS cold raw',
      'JS warm wire',
      'scripts',
    ];
    const widths = [46, 9, 9, 10, 13, 12, 13, 8];
    const line = (cells: string[]) => cells.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' ');
    console.log(`\nWeb load, Chromium ${browser.version()}, ${viewport.width}x${viewport.height}, median of ${RUNS}`);
    console.log(line(header));
    for (const [label, r] of rows) {
      console.log(
        line([
          label,
          ms(r.cold.lcp),
          ms(r.warm.lcp),
          kB(r.cold.docWire),
          kB(r.cold.jsWire),
          kB(r.cold.jsRaw),
          kB(r.warm.jsWire),
          String(r.cold.scripts),
        ]),
      );
    }
    console.log('(JS wire: bytes transferred, headers included; warm: 0 when the scripts come from the cache)');
  } finally {
    rmSync(path.join(dist, BASELINE), { force: true });
    await browser.close();
    await stack.stop();
  }
}

await main();
