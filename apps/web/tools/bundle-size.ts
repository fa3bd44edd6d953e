/**
 * What the built web app sends: the JavaScript the sign-in page loads (index.html's entry, its static imports,
 * and the sign-in route's own chunk when it is split off) and the whole app, raw, gzip and brotli.
 * `npm run build -w @obol/web` prints it after `vite build`; e2e/specs/budget.e2e.ts holds the sign-in page to
 * SIGN_IN_BUDGET. Reads dist/.vite/manifest.json (build.manifest in vite.config.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** at most this much JavaScript on the wire (brotli) for the sign-in page (issue 14) */
export const SIGN_IN_BUDGET = 200_000;

export const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

/**
 * the sign-in route's module: its chunk is loaded with the entry when the route is lazy. Keyed by its path, or,
 * when another page imports from it too (a shared chunk, keyed `_SignInPage-hash.js`), by its chunk's name.
 */
const SIGN_IN_MODULE = /features\/auth\/SignInPage\.tsx$/;
const SIGN_IN_CHUNK = 'SignInPage';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface Sizes {
  files: string[];
  raw: number;
  gzip: number;
  brotli: number;
}

export interface BundleReport {
  signIn: Sizes;
  app: Sizes;
  /** every JS chunk, largest first */
  chunks: (Sizes & { name: string })[];
}

function sizesOf(dist: string, files: string[]): Sizes {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const f of files) {
    const content = readFileSync(path.join(dist, f));
    raw += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
    brotli += brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files, raw, gzip, brotli };
}

/** the chunk and every chunk it imports statically (what the browser fetches before it runs) */
function closure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const k of manifest[key].imports ?? []) visit(k);
  };
  keys.forEach(visit);
  return [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
}

export function measure(dist = DIST): BundleReport {
  const manifestPath = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: build the web app first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const signInRoute = Object.keys(manifest).filter(
    (k) => manifest[k].isDynamicEntry && (SIGN_IN_MODULE.test(k) || manifest[k].name === SIGN_IN_CHUNK),
  );
  const all = readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`);
  return {
    signIn: sizesOf(dist, closure(manifest, [...entries, ...signInRoute])),
    app: sizesOf(dist, all),
    chunks: all.map((f) => ({ name: f, ...sizesOf(dist, [f]) })).sort((a, b) => b.raw - a.raw),
  };
}

/** kilobytes of 1,000 bytes, as Vite prints them */
const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const line = (label: string, s: Sizes) =>
  `${label.padEnd(34)} ${kB(s.raw).padStart(10)} ${kB(s.gzip).padStart(10)} ${kB(s.brotli).padStart(10)}`;

export function format(r: BundleReport): string {
  const out = [
    `${'JavaScript'.padEnd(34)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}`,
    line(`sign-in page (${r.signIn.files.length} chunks)`, r.signIn),
    line(`whole app (${r.app.files.length} chunks)`, r.app),
    ...r.chunks.slice(0, 8).map((c) => line(`  ${c.name.replace(/^assets\//, '')}`, c)),
  ];
  const verdict =
    r.signIn.brotli <= SIGN_IN_BUDGET
      ? `sign-in page within its budget of ${kB(SIGN_IN_BUDGET)} brotli`
      : `sign-in page OVER its budget of ${kB(SIGN_IN_BUDGET)} brotli by ${kB(r.signIn.brotli - SIGN_IN_BUDGET)}`;
  return [...out, verdict].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(format(measure()));
}
