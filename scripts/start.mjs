// `npm start`: builds the web app if it is not built, then runs the provider simulator and the server
// (which applies migrations and seeds the demo data on first start). Ctrl-C stops both.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Node 22.12+ (pg-boss needs it; the server runs from its TypeScript through Node's own type stripping).
// `npm ci` installs one into node_modules on Linux, Windows and Intel macOS, and `npm start` puts it first.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `Obol needs Node.js 22.12 or newer; this is ${process.version}. Start it with \`npm start\` (which uses the Node ` +
      'that `npm ci` installed into node_modules where one exists for this platform) or install Node 22.\n',
  );
  process.exit(1);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webIndex = path.join(root, 'apps/web/dist/index.html');

if (!existsSync(webIndex)) {
  process.stdout.write('Building the web app (first start)...\n');
  const r = spawnSync('npm', ['run', 'build', '-w', '@obol/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// the simulator posts its webhooks to this server unless told otherwise
process.env.PROVIDER_WEBHOOK_URL ??= `http://127.0.0.1:${process.env.PORT ?? 3000}/api/provider/webhook`;
// the simulator and the server share a key and a webhook secret of this run: never the well-known defaults
process.env.PROVIDER_API_KEY ||= randomBytes(24).toString('hex');
process.env.PROVIDER_WEBHOOK_SECRET ||= randomBytes(32).toString('hex');

const children = [];
function run(name, entry) {
  const child = spawn(
    process.execPath,
    [...(process.features.typescript ? [] : ['--experimental-strip-types']), entry],
    { cwd: root, stdio: 'inherit', env: process.env },
  );
  child.on('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`${name} stopped (${signal ?? code}); stopping Obol.\n`);
    stop(code ?? 1);
  });
  children.push(child);
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

run('provider simulator', 'apps/provider/src/main.ts');
run('server', 'apps/server/src/main.ts');
