/**
 * Texts that test every rule of the cell writer (cells.ts): formulas, quoting, trimmed spaces, XML's escapes and the
 * characters XML cannot hold.
 */
export const TRICKY = [
  '=1+1',
  '+31 6',
  '-2',
  '@SUM(A1)',
  '\tx',
  '\rx',
  '＝1',
  '＋x',
  '－x',
  '＠x',
  "'quoted",
  'Ana "A" Novak',
  'a,b',
  'line\nbreak',
  'cr\rin',
  ' padded',
  'padded ',
  '\u00a0nbsp',
  'nbsp\u00a0',
  '\u3000ideo',
  'bell\u0007gone',
  '&amp <b> & </t>',
  '\u2028sep',
  'zw\ufeff',
  '\u000bvt',
  'plain',
  '',
  'ünïcødé € 😀',
  'back\\slash \\1',
  '$1 dollar $2',
  "it's",
  '-',
  '=',
  '"',
  'x\n',
  'a\u0001b\u001fc',
  // what joins a row's texts for the test of them all (cells.ts), inside a text
  'del\u007f=x ',
  '\u007f',
];

/** What an XML reader gives back of a text: without what XML 1.0 cannot hold, line ends as LF. */
export const xmlRead = (t: string) =>
  // eslint-disable-next-line no-control-regex
  t.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/\r\n?/g, '\n');
