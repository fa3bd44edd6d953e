import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ---------- one-way feature seams on the server ----------
// A server feature (apps/server/src/features/<a>/) owns the tables of its tables.ts. Another feature calls that
// feature's exported functions: it never imports those tables, nor names them in raw SQL (docs/code-style.md).
// The platform names only its own (platform/tables.ts): what it needs of a feature's is handed in by app.ts.

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const FEATURES = path.join(ROOT, 'apps/server/src/features');
const SCHEMA = path.join(ROOT, 'apps/server/src/schema');

/** database table name -> the feature whose tables.ts declares it */
const TABLE_OWNER = new Map(
  readdirSync(FEATURES)
    .filter((f) => existsSync(path.join(FEATURES, f, 'tables.ts')))
    .flatMap((f) =>
      [...readFileSync(path.join(FEATURES, f, 'tables.ts'), 'utf8').matchAll(/pgTable\(\s*'(\w+)'/g)].map((m) => [
        m[1],
        f,
      ]),
    ),
);
const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)/gi;

/**
 * The read side: the payout lists, reports and exports read across every feature's tables in one query per page
 * or chunk (bench/); they read, they never write, so they may name any table.
 */
const READ_MODELS = new Set(['transactions', 'reports', 'downloads']);

/**
 * Families: a feature's tables shared with the features cut from it. Merchants and brands are rows of the users
 * table (with holder_details and fee_changes), so merchants, brands and fees read and write them as users does.
 * A batch's payouts are rows of payouts: its execution inserts them from its staged rows in one INSERT … SELECT a
 * chunk, sums them against its reserve and sends them, so batches writes the payouts table as payouts does.
 */
const TABLE_FAMILY = { users: ['merchants', 'brands', 'fees'], payouts: ['batches'] };
const foreignTo = (feature, owner) => owner !== feature && !TABLE_FAMILY[owner]?.includes(feature);

const PLATFORM = path.join(ROOT, 'apps/server/src/platform');

/** The feature a path lies in and the path inside it; null outside the features. */
function featureOf(file) {
  const rel = path.relative(FEATURES, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [feature, ...rest] = rel.split(path.sep);
  return rest.length ? { feature, inside: rest.join('/') } : null;
}

/**
 * Calls hit(owner, node, messageId, data) for every use of another feature's tables in the file: an import of its
 * tables.ts (or of src/schema.ts, every table), or its table named after FROM, JOIN, INTO or UPDATE in a
 * sql`` template. A tables.ts may reference another feature's table for a foreign key: that is the schema.
 */
function foreignTables(context, hit) {
  const inPlatform = !path.relative(PLATFORM, context.filename).startsWith('..');
  const here = featureOf(context.filename) ?? (inPlatform ? { feature: 'platform', inside: '' } : null);
  if (!here || here.inside === 'tables.ts' || READ_MODELS.has(here.feature)) return null;
  const data = (owner, extra) => ({ feature: here.feature, owner, ...extra });
  const checkSource = (node) => {
    const spec = node.source?.value;
    if (typeof spec !== 'string' || !spec.startsWith('.')) return;
    const target = path.resolve(path.dirname(context.filename), spec).replace(/\.[cm]?[jt]s$/, '');
    if (target === SCHEMA) return hit('*', node.source, 'schema', data('*'));
    const there = featureOf(target);
    if (there?.inside === 'tables' && foreignTo(here.feature, there.feature)) {
      hit(there.feature, node.source, 'import', data(there.feature));
    }
  };
  return {
    ImportDeclaration: checkSource,
    ExportNamedDeclaration: checkSource,
    ExportAllDeclaration: checkSource,
    ImportExpression: checkSource,
    TaggedTemplateExpression(node) {
      if (node.tag.type !== 'Identifier' || node.tag.name !== 'sql') return;
      for (const quasi of node.quasi.quasis) {
        const tables = new Set([...quasi.value.raw.matchAll(SQL_TABLE)].map((m) => m[1]));
        for (const table of tables) {
          const owner = TABLE_OWNER.get(table);
          if (owner && foreignTo(here.feature, owner)) hit(owner, quasi, 'sql', data(owner, { table }));
        }
      }
    },
  };
}

// ---------- layers that go one way on the server ----------
// The platform imports no feature; the ledger imports none; the engine imports only the ledger; and no two features
// import each other (docs/architecture.md, "Layers"). A tables.ts counts like any file: a foreign key points down
// the layers (one that cannot is declared in SQL only, decisions/039). Tests may import anything.
/** what the bottom layers may import among the features */
const BELOW = { ledger: [], engine: ['ledger'] };
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm;
const isSource = (f) => f.endsWith('.ts') && !f.endsWith('.test.ts');

/** feature -> the features its source files import */
const FEATURE_IMPORTS = new Map(
  readdirSync(FEATURES).map((feature) => {
    const dir = path.join(FEATURES, feature);
    const files = readdirSync(dir, { recursive: true }).filter((f) => isSource(String(f)));
    const used = new Set();
    for (const f of files) {
      const file = path.join(dir, String(f));
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const there = featureOf(path.resolve(path.dirname(file), m[1]));
        if (!there || there.feature === feature) continue;
        used.add(there.feature);
      }
    }
    return [feature, used];
  }),
);

// ---------- one-way feature seams on the web ----------
// A web feature (apps/web/src/features/<a>/) never imports another feature: what two features share lives in
// ui/ (components) or lib/ (logic), and a screen made of two features is composed in app/.
const WEB_FEATURES = path.join(ROOT, 'apps/web/src/features');
const webFeatureOf = (file) => {
  const rel = path.relative(WEB_FEATURES, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep)[0];
};

const allowedIn = (context) => new Set(context.options[0]?.allow?.[path.relative(ROOT, context.filename)] ?? []);
const exceptionsOption = [{ type: 'object', properties: { allow: { type: 'object' } }, additionalProperties: false }];

const seams = {
  rules: {
    layers: {
      meta: {
        type: 'problem',
        messages: {
          platform: "The platform imports feature '{{other}}': the platform is below every feature.",
          below: "'{{feature}}' is a bottom layer and imports feature '{{other}}' (it may import: {{may}}).",
          cycle:
            "Features '{{feature}}' and '{{other}}' import each other: move what both need to the one that owns it, or lower.",
        },
      },
      create(context) {
        const file = context.filename;
        const inPlatform = !path.relative(PLATFORM, file).startsWith('..');
        const here = featureOf(file);
        if (!inPlatform && !here) return {};
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string' || !spec.startsWith('.')) return;
          const there = featureOf(path.resolve(path.dirname(file), spec));
          if (!there || there.feature === here?.feature) return;
          const report = (messageId, data) => context.report({ node: node.source, messageId, data });
          if (inPlatform) return report('platform', { other: there.feature });
          const below = BELOW[here.feature];
          if (below && !below.includes(there.feature))
            return report('below', { feature: here.feature, other: there.feature, may: below.join(', ') || 'none' });
          if (FEATURE_IMPORTS.get(there.feature)?.has(here.feature))
            report('cycle', { feature: here.feature, other: there.feature });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
    'no-foreign-feature': {
      meta: {
        type: 'problem',
        messages: {
          import:
            "Web feature '{{feature}}' imports feature '{{other}}': share it through ui/ or lib/, or compose both in app/.",
        },
      },
      create(context) {
        const here = webFeatureOf(context.filename);
        if (!here) return {};
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string' || !spec.startsWith('.')) return;
          const other = webFeatureOf(path.resolve(path.dirname(context.filename), spec));
          if (other && other !== here)
            context.report({ node: node.source, messageId: 'import', data: { feature: here, other } });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
    'no-foreign-tables': {
      meta: {
        type: 'problem',
        schema: exceptionsOption,
        messages: {
          import:
            "Feature '{{feature}}' imports the tables of feature '{{owner}}': call a function that '{{owner}}' exports instead (add it there).",
          schema: "Feature '{{feature}}' imports every table (src/schema.ts): call the owning features' functions.",
          sql: "Feature '{{feature}}' names table '{{table}}' of feature '{{owner}}' in SQL: call a function that '{{owner}}' exports instead (add it there).",
        },
      },
      create(context) {
        const allowed = allowedIn(context);
        return (
          foreignTables(context, (owner, node, messageId, data) => {
            if (!allowed.has(owner)) context.report({ node, messageId, data });
          }) ?? {}
        );
      },
    },
    'stale-table-exception': {
      meta: {
        type: 'suggestion',
        schema: exceptionsOption,
        messages: {
          stale:
            "This file no longer uses the tables of feature '{{owner}}': remove it from TABLE_EXCEPTIONS in eslint.config.js.",
        },
      },
      create(context) {
        const allowed = allowedIn(context);
        const used = new Set();
        const visitors = foreignTables(context, (owner) => used.add(owner));
        if (!visitors || !allowed.size) return {};
        return {
          ...visitors,
          'Program:exit'(node) {
            for (const owner of allowed) {
              if (!used.has(owner))
                context.report({ node, loc: { line: 1, column: 0 }, messageId: 'stale', data: { owner } });
            }
          },
        };
      },
    },
  },
};

/**
 * The files that may use another feature's tables, each with the features whose tables it uses: none left (issue
 * 47). A line here is debt: the 'stale-table-exception' warning says when its file no longer needs it.
 */
const TABLE_EXCEPTIONS = {};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/drizzle/meta/**', 'e2e/.artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    plugins: { seams },
    rules: { 'seams/no-foreign-feature': 'error' },
  },
  {
    // tests may read any table to check what happened
    files: ['apps/server/src/features/**/*.ts', 'apps/server/src/platform/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { seams },
    rules: {
      'seams/no-foreign-tables': ['error', { allow: TABLE_EXCEPTIONS }],
      'seams/stale-table-exception': ['warn', { allow: TABLE_EXCEPTIONS }],
    },
  },
  {
    files: ['apps/server/src/features/**/*.ts', 'apps/server/src/platform/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { seams },
    rules: { 'seams/layers': 'error' },
  },
  {
    // a prompt to ask whether a long file does two things, never a limit to write down to (docs/code-style.md)
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**', '**/test-*.{ts,tsx}'],
    rules: { 'max-lines': ['warn', { max: 600, skipBlankLines: true, skipComments: true }] },
  },
);
