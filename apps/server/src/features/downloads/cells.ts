import { sql, type SQL } from 'drizzle-orm';

/**
 * The cells of an export written by the database: each spec that declares `rows` names its columns as SQL
 * expressions of one of these kinds, and the export turns them into a whole CSV line or a whole XLSX row in the
 * query itself (COPY on PostgreSQL, chunks on PGlite): byte for byte what writer.ts writes for the same values.
 *
 * - text: any text, neutralised (a leading =, +, -, @, tab or CR gets an apostrophe) and quoted as csvField does;
 *   NULL is an empty cell (as a null Cell: the empty field in CSV, no value in XLSX; coalesce to '' for an empty text)
 * - plain: text known to hold none of what text guards against (digits, ISO times, fixed labels, codes); written
 *   as is; NULL is an empty cell
 * - cents: a whole number of cents, written as euros with two decimals (-0.05, 1234.56); NULL is an empty cell
 * - int: a whole number; NULL is an empty cell
 */
export type SqlCell = { kind: 'text' | 'plain' | 'cents' | 'int'; sql: SQL };

export const textCell = (e: SQL): SqlCell => ({ kind: 'text', sql: e });
export const plainCell = (e: SQL): SqlCell => ({ kind: 'plain', sql: e });
export const centsCell = (e: SQL): SqlCell => ({ kind: 'cents', sql: e });
export const intCell = (e: SQL): SqlCell => ({ kind: 'int', sql: e });

/** A label for each value (a JavaScript `LABELS[v] ?? v`): CASE e WHEN 'a' THEN 'A' ... ELSE e END. */
export function labelSql(e: SQL, labels: Record<string | number, string>, otherwise: SQL = e): SQL {
  const whens = Object.entries(labels).map(
    ([k, v]) => sql`WHEN ${sql.raw(`'${k.replace(/'/g, "''")}'`)} THEN ${sql.raw(`'${v.replace(/'/g, "''")}'`)}`,
  );
  return sql`(CASE (${e})::text ${sql.join(whens, sql` `)} ELSE ${otherwise} END)`;
}

/** A timestamp(tz) as JavaScript's toISOString writes it (UTC, milliseconds truncated): 2026-01-02T03:04:05.678Z. */
export const isoSql = (e: SQL): SQL => sql`to_char((${e}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// Each text cell is tested by the codes of its first and last characters (ascii(): 0 for an empty text) and at
// most one match, and only the text that needs it is changed (the common text needs nothing done): regular
// expressions replacing in every cell made an XLSX export ~8x slower than COPY. Characters are written with
// chr() so the SQL holds no raw control characters.

/** What JavaScript's String.prototype.trim removes (WhiteSpace and LineTerminator). */
const WS_CODES = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
  0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
/** a formula's first character (writer.ts's neutralise): it gets an apostrophe before it */
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
/** csvField quotes the neutralised text: a quote, comma, CR or LF anywhere, a first apostrophe, or trimmable */
const csvQuoted = (e: SQL) =>
  sql`(${asText(e)} ~ ('[",' || chr(13) || chr(10) || ']') OR ascii(${asText(e)}) IN ${inList([0x27, ...FORMULA_CODES, ...WS_CODES])}
    OR ascii(right(${asText(e)}, 1)) IN ${inList(WS_CODES)})`;

/** euros with two decimals from cents (as writer.ts's euros) */
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
      return sql`coalesce(CASE WHEN ${csvQuoted(c.sql)} THEN '"' || replace(${neutralised(c.sql)}, '"', '""') || '"' ELSE ${neutralised(c.sql)} END, '')`;
  }
}

/**
 * The parts (none of them NULL) as one text: concat() writes them once, where `a || b || c ...` copies the text
 * built so far at each step (a row of a few hundred bytes in ~100 steps: most of an export's time). Groups of 50
 * stay under the limit of a function's arguments (100).
 */
function concatSql(parts: SQL[]): SQL {
  if (parts.length <= 50) return sql`concat(${sql.join(parts, sql`, `)})`;
  const groups: SQL[] = [];
  for (let i = 0; i < parts.length; i += 50) groups.push(concatSql(parts.slice(i, i + 50)));
  return concatSql(groups);
}

/** The whole CSV line of a row, with its CRLF: csvWriter's `rows` for the same values. */
export function csvLineSql(cells: SqlCell[]): SQL {
  return concatSql([
    ...cells.flatMap((c, i) => (i ? [sql`','`, csvField(c)] : [csvField(c)])),
    sql`chr(13)`,
    sql`chr(10)`,
  ]);
}

const xmlEscaped = (t: SQL) => sql`replace(replace(replace(${t}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;

function xlsxCell(c: SqlCell, open: SQL): SQL {
  switch (c.kind) {
    case 'int':
      return sql`coalesce(${open} || '><v>' || (${c.sql})::bigint::text || '</v></c>', ${open} || '/>')`;
    case 'cents':
      // the number as xlsxWriter writes cents / 100 (79.2, not 79.20): the cell's format shows two decimals
      return sql`coalesce(${open} || ' s="2"><v>' || trim_scale((${c.sql})::numeric / 100)::text || '</v></c>', ${open} || '/>')`;
    case 'plain':
      return sql`coalesce(${open} || ' t="inlineStr"><is><t>' || ${xmlEscaped(sql`(${c.sql})::text`)} || '</t></is></c>', ${open} || '/>')`;
    case 'text':
      // marked xml:space="preserve" when trim would change it, rid of what XML cannot hold, escaped
      return sql`coalesce(${open} || ' t="inlineStr"><is><t' || CASE WHEN ${trimmable(c.sql)} THEN ' xml:space="preserve"' ELSE '' END
        || '>' || ${xmlEscaped(xmlHeld(c.sql))} || '</t></is></c>', ${open} || '/>')`;
  }
}

/** A, B, ..., Z, AA, ... (writer.ts's columnName) */
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

/**
 * The whole XLSX row of a row, numbered `n` in the sheet (the header is row 1): xlsxWriter's row of the same
 * values, every cell naming its place (A<n>, B<n>, ...); an empty cell is written as <c r=".."/>.
 */
export function xlsxRowSql(cells: SqlCell[], n: SQL): SQL {
  // the row is built with '<>' where its number goes, and the number put in once: every tag is then a constant
  // (writing the number into each cell's tag was half of an export's time). No cell's text holds '<>': text and
  // plain cells are XML-escaped (no '<' is left), numbers are digits.
  return sql`replace(${concatSql([
    sql`'<row r="<>">'`,
    ...cells.map((c, i) => xlsxCell(c, sql.raw(`'<c r="${columnName(i)}<>"'`))),
    sql`'</row>'`,
  ])}, '<>', (${n})::text)`;
}
