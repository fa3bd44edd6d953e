import { performance } from 'node:perf_hooks';
import { yieldToRequests } from '../../platform/turns.ts';

/** The file is not a payout file we can read: the upload is refused with this message. */
export class FileRefused extends Error {}

/**
 * What an uploaded file may hold. Every cap is checked while the file is read, never after, so a hostile file
 * costs at most this much memory and time whatever it declares. See docs/decisions/004-uploaded-files.md.
 */
export const FILE_LIMITS = {
  /** characters in one cell (CSV field or spreadsheet cell) */
  fieldChars: 1_000,
  /** cells in one spreadsheet row, empty ones included; separators on one physical CSV line */
  cellsPerRow: 1_000,
  /** blank rows (every cell empty) or blank CSV lines in one file, before and after the header */
  blankRows: 10_000,
  /** bytes of one part of an .xlsx once inflated (the worksheet, the shared strings, ...) */
  partBytes: 100 * 1024 * 1024,
  /** bytes of all the parts read from one .xlsx once inflated */
  totalBytes: 160 * 1024 * 1024,
  /** entries in the zip of an .xlsx */
  zipEntries: 10_000,
  /** strings in the shared string table of an .xlsx */
  sharedStrings: 1_000_000,
  /** characters in the shared string table of an .xlsx, all strings together */
  sharedStringChars: 30_000_000,
  /** characters the XML parser may hold for one token (text, attribute value, name) before it ends */
  xmlTokenChars: 64 * 1024,
  /** XML elements in one part of an .xlsx (a 100,000-row sheet of inline strings has about 2,000,000) */
  xmlElements: 5_000_000,
  /** attributes on one XML element */
  xmlAttributes: 256,
  /** nesting depth of XML elements */
  xmlDepth: 64,
  /** wall-clock time spent reading one file, not counting the time its reader spends on the rows */
  deadlineMs: 60_000,
};
export type FileLimits = typeof FILE_LIMITS;

export interface ReadOptions {
  /** overrides of FILE_LIMITS (tests use smaller ones) */
  limits?: Partial<FileLimits>;
  /** shorthand for limits.deadlineMs */
  deadlineMs?: number;
}

export const limitsOf = (opts: ReadOptions = {}): FileLimits => ({
  ...FILE_LIMITS,
  ...opts.limits,
  ...(opts.deadlineMs !== undefined ? { deadlineMs: opts.deadlineMs } : {}),
});

export const num = (n: number) => n.toLocaleString('en');
export const megabytes = (bytes: number) => `${num(Math.round(bytes / 1024 / 1024))} MB`;

/** How long the event loop may be held by reading before it gets a turn. */
const SLICE_MS = 10;

/**
 * Time spent reading one file. The reader calls tick() between chunks and rows: it refuses the file past the
 * deadline and gives the event loop a turn every few milliseconds, so other requests are answered meanwhile.
 * pause()/resume() bracket the time the consumer holds a row (staging writes to the database), which does not
 * count against the deadline.
 */
export class ReadClock {
  private spent = 0;
  private since = performance.now();
  private lastTurn = this.since;
  private running = true;
  private readonly deadlineMs: number;
  constructor(deadlineMs: number) {
    this.deadlineMs = deadlineMs;
  }

  pause() {
    if (!this.running) return;
    this.spent += performance.now() - this.since;
    this.running = false;
  }

  resume() {
    this.since = performance.now();
    this.lastTurn = this.since;
    this.running = true;
  }

  /** reading time so far; a read-ahead while the caller holds a row does not add to it */
  elapsed() {
    return this.spent + (this.running ? performance.now() - this.since : 0);
  }

  check() {
    if (this.elapsed() > this.deadlineMs) throw new FileRefused('The file took too long to read');
  }

  /** whether tick() has anything to do: past the deadline, or the event loop is owed a turn (cheap, synchronous) */
  due() {
    const now = performance.now();
    return now - this.lastTurn >= SLICE_MS || this.spent + (this.running ? now - this.since : 0) > this.deadlineMs;
  }

  async tick() {
    this.check();
    if (performance.now() - this.lastTurn >= SLICE_MS) {
      await yieldToRequests();
      this.lastTurn = performance.now();
      this.check();
    }
  }
}

// C0 controls except tab, LF and CR; DEL; a surrogate not part of a pair (PostgreSQL text holds none of them)
const BAD_CHAR =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\0-\x08\x0B\x0C\x0E-\x1F\x7F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first character a cell may not hold, as U+XXXX, or null. */
export function badCharacter(text: string): string | null {
  const m = BAD_CHAR.exec(text);
  return m ? `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : null;
}

/** A copy of a string that holds no reference to the (much larger) chunk it was cut from. */
export const detached = (s: string) => (s.length < 13 ? s : Buffer.from(s, 'utf16le').toString('utf16le'));
