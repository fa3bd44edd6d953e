import { sql, type SQL } from 'drizzle-orm';

/**
 * The one cell writer of every export (issue 51): each export names its columns as SQL expressions of one of these
 * kinds, and the query itself turns a row into a whole CSV line or a whole XLSX row (COPY on PostgreSQL, chunks on
 * PGlite; rows.ts). JavaScript only moves the bytes into the file (writer.ts). What it buys (bench:transactions,
 * 100,000 payouts on PostgreSQL, same run): XLSX 2.8x COPY against 8.5x for the JavaScript cell writer it replaced,
 * CSV 2.1x against 4.3x; a whole-library writer (exceljs) took 5.6x. Three times the speed: kept
 * (docs/decisions/040-xlsx-writer.md).
 *
 * - text: any text, neutralised (a leading =, +, -, @, tab or CR gets an apostrophe, OWASP "CSV injection") and quoted
 *   as RFC 4180 needs; NULL is an empty cell (coalesce to '' for an empty text)
 * - heading: a text of the header row (bold in XLSX)
 * - plain: text known to hold none of what text guards against (digits, ISO times, fixed labels, codes); written
 *   as is; NULL is an empty cell
 * - cents: a whole number of cents, written as euros with two decimals (-0.05, 1234.56); in XLSX a number shown with
 *   two decimals; NULL is an empty cell
 * - int: a whole number; NULL is an empty cell
 */
export type SqlCell = { kind: 'text' | 'heading' | 'plain' | 'cents' | 'int'; sql: SQL };

/** the kinds whose text is neutralised, quoted and escaped */
const isText = (c: SqlCell) => c.kind === 'text' || c.kind === 'heading';

export const textCell = (e: SQL): SqlCell => ({ kind: 'text', sql: e });
export const plainCell = (e: SQL): SqlCell => ({ kind: 'plain', sql: e });
export const centsCell = (e: SQL): SqlCell => ({ kind: 'cents', sql: e });
export const intCell = (e: SQL): SqlCell => ({ kind: 'int', sql: e });

/** An export's column: its heading in the header row, and its cell in each row. */
export type Column = [heading: string, cell: SqlCell];

/** An export's header and cells (ExportSpec) from its columns, each heading beside its cell. */
export const columns = (list: Column[]): { header: string[]; cells: SqlCell[] } => ({
  header: list.map(([heading]) => heading),
  cells: list.map(([, cell]) => cell),
});

/** The header row's cells: its names as constants. */
export const headingCells = (names: string[]): SqlCell[] =>
  names.map((name) => ({ kind: 'heading', sql: sql`${name}::text` }));

/** A label for each value (a JavaScript `LABELS[v] ?? v`): CASE e WHEN 'a' THEN 'A' ... ELSE e END. */
export function labelSql(e: SQL, labels: Record<string | number, string>, otherwise: SQL = e): SQL {
  const whens = Object.entries(labels).map(
    ([k, v]) => sql`WHEN ${sql.raw(`'${k.replace(/'/g, "''")}'`)} THEN ${sql.raw(`'${v.replace(/'/g, "''")}'`)}`,
  );
  return sql`(CASE (${e})::text ${sql.join(whens, sql` `)} ELSE ${otherwise} END)`;
}

/** A timestamp(tz) as JavaScript's toISOString writes it (UTC, milliseconds truncated): 2026-01-02T03:04:05.678Z. */
export const isoSql = (e: SQL): SQL => sql`to_char((${e}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// Most rows need nothing done to any text: one regular expression over the row's texts joined (`someText`) finds
// the rows that do, and the others are their bare values between constant tags (an XLSX export's query took half
// the time). A row that does is written cell by cell: each text cell is tested by the codes of its first and last
// characters (ascii(): 0 for an empty text) and at most one match, and only the text that needs it is changed:
// regular expressions replacing in every cell made an XLSX export ~8x slower than COPY. Characters are written
// with chr() so the SQL holds no raw control characters.

/** What JavaScript's String.prototype.trim removes (WhiteSpace and LineTerminator). */
const WS_CODES = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
  0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
/** a formula's first character: it gets an apostrophe before it */
const FORMULA_CODES = [0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d, 0xff1d, 0xff0b, 0xff0d, 0xff20];
/** the characters XML 1.0 cannot hold (PostgreSQL text holds no NUL) */
const XML_BAD_CODES = [
  1, 2, 3, 4, 5, 6, 7, 8, 0x0b, 0x0c, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a,
  0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0xfffe, 0xffff,
];
/** the code of the first (or last) character is one of these: ascii(e) IN (...), with numbers, not texts */
const inList = (codes: number[]) => sql.raw(`(${[...new Set(codes)].join(', ')})`);
const concat = (codes: number[]) => sql.raw(`(${codes.map((c) => `chr(${c})`).join(' || ')})`);

/** the neutralised text without what XML cannot hold (translate costs ~20x a match: only text that has some) */
const xmlHeld = (e: SQL) =>
  sql`(CASE WHEN ${asText(e)} ~ ('[' || ${concat(XML_BAD_CODES)} || ']') THEN translate(${neutralised(e)}, ${concat(XML_BAD_CODES)}, '') ELSE ${neutralised(e)} END)`;

/** the value as text */
const asText = (e: SQL) => sql`(${e})::text`;
/** the text of a text cell, neutralised: a formula gets an apostrophe before it */
const neutralised = (e: SQL) =>
  sql`(CASE WHEN ascii(${asText(e)}) IN ${inList(FORMULA_CODES)} THEN '''' || ${asText(e)} ELSE ${asText(e)} END)`;
/** the neutralised text starts or ends with what trim removes (neutralising only puts an apostrophe first) */
const trimmable = (e: SQL) =>
  sql`(ascii(${asText(e)}) IN ${inList(WS_CODES.filter((c) => !FORMULA_CODES.includes(c)))} OR ascii(right(${asText(e)}, 1)) IN ${inList(WS_CODES)})`;
/** a CSV field quotes the neutralised text: a quote, comma, CR or LF anywhere, a first apostrophe, or trimmable */
const csvQuoted = (e: SQL) =>
  sql`(${asText(e)} ~ ('[",' || chr(13) || chr(10) || ']') OR ascii(${asText(e)}) IN ${inList([0x27, ...FORMULA_CODES, ...WS_CODES])}
    OR ascii(right(${asText(e)}, 1)) IN ${inList(WS_CODES)})`;

/** euros with two decimals from cents */
const euros = (e: SQL) =>
  sql`(CASE WHEN (${e}) < 0 THEN '-' ELSE '' END || (abs((${e})::bigint) / 100)::text || '.' || lpad((abs((${e})::bigint) % 100)::text, 2, '0'))`;

function csvField(c: SqlCell): SQL {
  switch (c.kind) {
    case 'plain':
      return sql`coalesce((${c.sql})::text, '')`;
    case 'int':
      return sql`coalesce((${c.sql})::bigint::text, '')`;
    case 'cents':
      return sql`coalesce(${euros(c.sql)}, '')`;
    case 'text':
    case 'heading':
      return sql`coalesce(CASE WHEN ${csvQuoted(c.sql)} THEN '"' || replace(${neutralised(c.sql)}, '"', '""') || '"' ELSE ${neutralised(c.sql)} END, '')`;
  }
}

/** `wrap` of the parts, nested in groups of `max` (a function takes at most 100 arguments) */
function grouped(parts: SQL[], max: number, wrap: (args: SQL) => SQL): SQL {
  if (parts.length <= max) return wrap(sql.join(parts, sql`, `));
  const groups: SQL[] = [];
  for (let i = 0; i < parts.length; i += max) groups.push(grouped(parts.slice(i, i + max), max, wrap));
  return grouped(groups, max, wrap);
}

/**
 * The parts as one text (a NULL part is left out): concat() writes them once, where `a || b || c ...` copies the
 * text built so far at each step (a row of a few hundred bytes in ~100 steps: most of an export's time).
 */
const concatSql = (parts: SQL[]): SQL => grouped(parts, 100, (args) => sql`concat(${args})`);

/** a regular expression's bracket expression of these characters ('-' last, so it is no range) */
const charClass = (codes: number[]) => {
  const set = [...new Set(codes)].sort((a, b) => Number(a === 0x2d) - Number(b === 0x2d));
  return `'[' || ${set.map((c) => `chr(${c})`).join(' || ')} || ']'`;
};
/** what joins a row's texts for one test of them all (any character would do: see `someText`) */
const SEP = 'chr(127)';
/**
 * Some of the texts (joined by SEP, none NULL) matches `pattern`, which finds what needs more than a text's bare
 * value. One test of a row's texts is cheaper than a few of each (most rows need nothing). A pattern finds a text's
 * first character after ^ or SEP, its last before SEP or $; a SEP inside a text can only make it match where
 * nothing is needed (the row is then written cell by cell, which is right too).
 */
const someText = (texts: SQL[], pattern: string) =>
  sql`${grouped(texts, 99, (args) => sql`concat_ws(${sql.raw(SEP)}, ${args})`)} ~ ${sql.raw(pattern)}`;
const first = (codes: number[]) => `'(^|' || ${SEP} || ')' || ${charClass(codes)}`;
const last = (codes: number[]) => `${charClass(codes)} || '(' || ${SEP} || '|$)'`;

/** csvQuoted or neutralise has something to do */
const CSV_SPECIAL = `(${charClass([0x22, 0x2c, 0x0d, 0x0a])} || '|' || ${first([0x27, ...FORMULA_CODES, ...WS_CODES])} || '|' || ${last(WS_CODES)})`;

/** The whole CSV line of a row, with its CRLF. */
export function csvLineSql(cells: SqlCell[]): SQL {
  const line = (field: (c: SqlCell) => SQL) =>
    concatSql([...cells.flatMap((c, i) => (i ? [sql`','`, field(c)] : [field(c)])), sql`chr(13)`, sql`chr(10)`]);
  const texts = cells.filter(isText).map((c) => asText(c.sql));
  if (!texts.length) return line(csvField);
  // most rows: no text to quote or neutralise; each field is its value (concat leaves out a NULL: the empty field)
  const bare = line((c) => (isText(c) || c.kind === 'plain' ? asText(c.sql) : csvField(c)));
  return sql`CASE WHEN ${someText(texts, CSV_SPECIAL)} THEN ${line(csvField)} ELSE ${bare} END`;
}

const xmlEscaped = (t: SQL) => sql`replace(replace(replace(${t}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;

/** A, B, ..., Z, AA, ... */
function columnName(i: number): string {
  let n = i + 1;
  let name = '';
  while (n > 0) {
    const m = (n - 1) % 26;
    name = String.fromCharCode(65 + m) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** a text constant (with no quote in it) */
const lit = (text: string) => sql.raw(`'${text}'`);

/** how each kind of cell opens (after `<c r="B7`) and closes around its value */
const XLSX_TAGS: Record<SqlCell['kind'], [string, string]> = {
  int: ['"><v>', '</v></c>'],
  cents: ['" s="2"><v>', '</v></c>'],
  plain: ['" t="inlineStr"><is><t>', '</t></is></c>'],
  text: ['" t="inlineStr"><is><t>', '</t></is></c>'],
  // style 1 of writer.ts's styles: bold
  heading: ['" t="inlineStr" s="1"><is><t>', '</t></is></c>'],
};

/** a cell's value as XLSX writes it, when it holds nothing to escape or mark */
function bareValue(c: SqlCell): SQL {
  if (c.kind === 'int') return sql`(${c.sql})::bigint::text`;
  // the number of euros (79.2, not 79.20): the cell's format (style 2) shows two decimals
  if (c.kind === 'cents') return sql`trim_scale((${c.sql})::numeric / 100)::text`;
  return asText(c.sql);
}

/**
 * A cell as parts of concat() (a NULL part is left out), after its `<c r="B` and its row's number: an empty cell is
 * `<c r="B7"/>`; text is marked xml:space="preserve" when trim would change it, rid of what XML cannot hold, escaped.
 */
function xlsxCell(c: SqlCell): SQL[] {
  const t = asText(c.sql);
  const [open, close] = XLSX_TAGS[c.kind];
  const preserve = isText(c)
    ? sql`WHEN ${trimmable(c.sql)} THEN ${lit(open.replace('<t>', '<t xml:space="preserve">'))}`
    : sql``;
  const value = isText(c) ? xmlEscaped(xmlHeld(c.sql)) : c.kind === 'plain' ? xmlEscaped(t) : bareValue(c);
  return [
    sql`CASE WHEN ${t} IS NULL THEN '"/>' ${preserve} ELSE ${lit(open)} END`,
    value,
    sql`CASE WHEN ${t} IS NULL THEN NULL ELSE ${lit(close)} END`,
  ];
}

/** a text (or plain) cell needs more than its bare value in XLSX: escaping, dropping, neutralising, marking */
const XLSX_SPECIAL = `(${charClass([0x26, 0x3c, 0x3e, ...XML_BAD_CODES])} || '|' || ${first([...FORMULA_CODES, ...WS_CODES])} || '|' || ${last(WS_CODES)})`;

/**
 * The row has no empty cell and no text that needs more than its bare value (most rows): one test of all its
 * texts, joined, rather than a few of each. An empty text is made chr(1), which the test finds.
 */
function bareRow(cells: SqlCell[]): SQL {
  const terms: SQL[] = [];
  const numbers = cells.filter((c) => c.kind === 'int' || c.kind === 'cents').map((c) => c.sql);
  for (let i = 0; i < numbers.length; i += 99)
    terms.push(sql`num_nulls(${sql.join(numbers.slice(i, i + 99), sql`, `)}) = 0`);
  const texts = cells.filter((c) => isText(c) || c.kind === 'plain');
  if (texts.length)
    terms.push(
      sql`NOT ${someText(
        texts.map((c) => sql`coalesce(${asText(c.sql)}, chr(1))`),
        XLSX_SPECIAL,
      )}`,
    );
  return terms.length ? sql.join(terms, sql` AND `) : sql`true`;
}

/**
 * The whole XLSX row of a row, numbered `n` (a text; the header is row 1), every cell naming its place (A<n>, B<n>,
 * ...); an empty cell is written as <c r=".."/>. The cells' SQL should
 * name values computed once (a subquery's columns: rows.ts), as each is read more than once.
 */
export function xlsxRowSql(cells: SqlCell[], n: SQL): SQL {
  /** the row with each cell's parts after its `<c r="B` and number; texts next to each other as one constant */
  const build = (cellParts: (c: SqlCell) => (SQL | string)[]) => {
    const parts: (SQL | string)[] = ['<row r="', n, '">'];
    cells.forEach((c, i) => parts.push(`<c r="${columnName(i)}`, n, ...cellParts(c)));
    parts.push('</row>');
    const merged: (SQL | string)[] = [];
    for (const p of parts)
      if (typeof p === 'string' && typeof merged[merged.length - 1] === 'string') merged[merged.length - 1] += p;
      else merged.push(p);
    return concatSql(merged.map((p) => (typeof p === 'string' ? lit(p) : p)));
  };
  const bare = build((c) => [XLSX_TAGS[c.kind][0], bareValue(c), XLSX_TAGS[c.kind][1]]);
  return sql`CASE WHEN ${bareRow(cells)} THEN ${bare} ELSE ${build(xlsxCell)} END`;
}

/**
 * The cells' values as columns (_c1, _c2, ...) of a subquery aliased `alias`, and the same cells reading them:
 * each value computed once, however often the row's SQL reads it.
 */
export function cellColumns(cells: SqlCell[], alias: string): { columns: SQL; cells: SqlCell[] } {
  return {
    columns: sql.join(
      cells.map((c, i) => sql`${c.sql} AS ${sql.raw(`_c${i + 1}`)}`),
      sql`, `,
    ),
    cells: cells.map((c, i) => ({ kind: c.kind, sql: sql.raw(`${alias}._c${i + 1}`) })),
  };
}
