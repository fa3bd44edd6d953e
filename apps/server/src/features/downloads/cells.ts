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

// What JavaScript's String.prototype.trim removes (WhiteSpace and LineTerminator). Characters are written with
// chr() so the SQL holds no raw control characters; PostgreSQL's regular expressions (ARE) anchor ^ and $ at
// the ends of the whole text and let . match a newline.
const WS_CODES = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
  0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
const chars = (codes: number[]) => codes.map((c) => `chr(${c})`).join(' || ');
const WS = chars(WS_CODES);
/** a formula's first character (writer.ts's neutralise): it gets an apostrophe before it */
const FORMULA = `('^([-=+@' || ${chars([0x09, 0x0d, 0xff1d, 0xff0b, 0xff0d, 0xff20])} || '])')`;
/**
 * A field csvField quotes (its quotes doubled first): a quote, comma, CR or LF anywhere, a leading apostrophe,
 * or a first or last character trim would remove. The whole field is caught and put between quotes.
 */
const CSV_QUOTED = `('^(.*[",' || ${chars([0x0d, 0x0a])} || '].*|[''' || ${WS} || '].*|.*[' || ${WS} || '])$')`;
/** a text xlsxCell writes with xml:space="preserve": trim would remove its first or last character */
const XML_SPACE = `('^<t>([' || ${WS} || '].*|.*[' || ${WS} || '])</t>$')`;
/** the characters XML 1.0 cannot hold (PostgreSQL text holds no NUL) */
const BAD_CODES = [1, 2, 3, 4, 5, 6, 7, 8, 0x0b, 0x0c, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17];
const XML_BAD = `('[' || ${chars([...BAD_CODES, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0xfffe, 0xffff])} || ']')`;

/** the text of a text cell, neutralised: a formula gets an apostrophe before it */
const neutralised = (e: SQL) => sql`regexp_replace((${e})::text, ${sql.raw(FORMULA)}, '''\\1')`;

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
      return sql`coalesce(regexp_replace(replace(${neutralised(c.sql)}, '"', '""'), ${sql.raw(CSV_QUOTED)}, '"\\1"'), '')`;
  }
}

/** The whole CSV line of a row, with its CRLF: csvWriter's `rows` for the same values. */
export function csvLineSql(cells: SqlCell[]): SQL {
  return sql`(${sql.join(cells.map(csvField), sql` || ',' || `)} || chr(13) || chr(10))`;
}

const xmlEscaped = (t: SQL) => sql`replace(replace(replace(${t}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;

function xlsxCell(c: SqlCell, open: SQL): SQL {
  switch (c.kind) {
    case 'int':
      return sql`coalesce(${open} || '><v>' || (${c.sql})::bigint::text || '</v></c>', ${open} || '/>')`;
    case 'cents':
      return sql`coalesce(${open} || ' s="2"><v>' || ${euros(c.sql)} || '</v></c>', ${open} || '/>')`;
    case 'plain':
      return sql`coalesce(${open} || ' t="inlineStr"><is><t>' || ${xmlEscaped(sql`(${c.sql})::text`)} || '</t></is></c>', ${open} || '/>')`;
    case 'text':
      // escaped, marked xml:space="preserve" when trim would change it, then rid of what XML cannot hold
      return sql`coalesce(${open} || ' t="inlineStr"><is>' || regexp_replace(regexp_replace('<t>' || ${xmlEscaped(neutralised(c.sql))} || '</t>',
        ${sql.raw(XML_SPACE)}, '<t xml:space="preserve">\\1</t>'), ${sql.raw(XML_BAD)}, '', 'g') || '</is></c>', ${open} || '/>')`;
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
  // `n` is written out at each use (not in a subquery, where a window function would count that subquery's row)
  const row = sql`(${n})::text`;
  return sql`('<row r="' || ${row} || '">' || ${sql.join(
    cells.map((c, i) => xlsxCell(c, sql`('<c r="' || ${sql.raw(`'${columnName(i)}'`)} || ${row} || '"')`)),
    sql` || `,
  )} || '</row>')`;
}
