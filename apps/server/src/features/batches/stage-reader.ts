import { Worker } from 'node:worker_threads';
import { checkChunk, SeenIds, type Chunk } from './columns.ts';
import { FileRefused, readRowBatches, type FileFormat } from './parse.ts';
import { STAGED_ID_STRIDE, stagedIdOf } from './staged-ids.ts';

/**
 * Staging's reading side, on a thread of its own: the file is parsed, every row checked (checkChunk) and each chunk
 * written out as COPY text, while the staging job's thread only looks up the chunk's ids and copies the text in.
 * PGlite runs its statements on the job's thread (the server's event loop), so there the file's reading no longer
 * adds to the database's time, nor holds up other requests; on PostgreSQL it frees the event loop the same way.
 * What it buys (`npm run bench:budget`, with and without in turn, 2026-11-29, a loaded machine, 50,000 rows): on
 * PGlite +70% rows/s, the event loop held at most 1.1-1.3 s against 1.4-2.9 s; on PostgreSQL +3% and +50% rows/s.
 */

/** What the reader needs to know of the batch and its merchant. */
export interface ReaderInput {
  file: string;
  format: FileFormat;
  /** the brand names the rows may name, lower-cased (brandNamesOf) */
  brands: string[];
  /** rows a chunk */
  rows: number;
  batchId: string;
  /** the batch's number: its rows' ids are stagedIdOf(seq, row number) */
  seq: number;
}

/**
 * One chunk of the file as it is copied into staged_transactions: its rows as COPY text (COPY_COLUMNS), each row
 * as validateRow marks it before the database is asked about its id, and what to ask: the ids to look up, the
 * rows they belong to, and the ids that may have been staged from an earlier chunk of this file (SeenIds).
 */
export interface ChunkText {
  /** rows in the chunk */
  count: number;
  text: string;
  /** where each row's line starts in `text`, and one past the last: count + 1 offsets */
  lineStarts: Int32Array;
  /** the rows to look up (an index into the chunk) and their ids, in the same order */
  lookUpRows: Int32Array;
  lookUpIds: string[];
  /** ids to look up among the batch's rows staged from earlier chunks too */
  earlierIds: string[];
}

/** The columns a chunk is copied into, in the order its text gives them. */
export const COPY_COLUMNS = `id, batch_id, row_number, beneficiary_name, obol_id, merchant_transaction_id, brand,
  reference, amount_text, amount, errors, status, missing`;
const ERRORS_FIELD = 10;
const STATUS_FIELD = 11;

/** The file's chunks, read and checked on this thread (what the reader thread runs). */
export async function* chunkTextsOf(input: ReaderInput): AsyncGenerator<ChunkText> {
  const brands = new Set(input.brands);
  const seen = new SeenIds();
  for await (const rows of readRowBatches(input.file, input.format, {}, input.rows)) {
    yield textOf(input, checkChunk(rows, brands, seen));
  }
}

function textOf(input: ReaderInput, c: Chunk): ChunkText {
  const n = c.rowNumber.length;
  const lineStarts = new Int32Array(n + 1);
  const lookUpRows: number[] = [];
  const lookUpIds: string[] = [];
  const earlierIds: string[] = [];
  const batchId = copyText(input.batchId);
  let text = '';
  for (let i = 0; i < n; i++) {
    // its batch's range holds 100,000,000 rows, more lines than an upload may have (50 MB)
    if (c.rowNumber[i] >= STAGED_ID_STRIDE) throw new FileRefused('The file has too many lines');
    const mtid = c.cols.merchant_transaction_id[i];
    if (c.lookUp[i]) {
      lookUpRows.push(i);
      lookUpIds.push(mtid);
      if (c.maybeEarlier[i]) earlierIds.push(mtid);
    }
    lineStarts[i] = text.length;
    // in COPY_COLUMNS' order
    text +=
      `${stagedIdOf(input.seq, c.rowNumber[i])}\t${batchId}\t${c.rowNumber[i]}\t${copyText(c.cols.beneficiary_name[i])}\t` +
      `${copyText(c.cols.obol_id[i])}\t${copyText(mtid)}\t${copyText(c.cols.brand[i])}\t${copyText(c.cols.reference[i])}\t` +
      `${copyText(c.cols.amount[i])}\t${copyText(c.cents[i])}\t${copyText(c.errors[i])}\t${c.status[i]}\t${c.missing[i]}\n`;
  }
  lineStarts[n] = text.length;
  return { count: n, text, lineStarts, lookUpRows: Int32Array.from(lookUpRows), lookUpIds, earlierIds };
}

/**
 * The chunk's text with the duplicates the database found (`ids`: id -> message) marked, as validateRow would: the
 * message joins the row's errors (merchant_transaction_id) and the row is Failed. Only those rows are rewritten.
 */
export function markDuplicates(c: ChunkText, ids: Record<string, string> | null): string {
  if (!ids) return c.text;
  let text = '';
  let from = 0;
  for (let k = 0; k < c.lookUpRows.length; k++) {
    const dup = ids[c.lookUpIds[k]];
    if (dup === undefined) continue;
    const i = c.lookUpRows[k];
    const fields = c.text.slice(c.lineStarts[i], c.lineStarts[i + 1] - 1).split('\t');
    const errors = JSON.parse(copyValue(fields[ERRORS_FIELD])) as Record<string, string>;
    fields[ERRORS_FIELD] = copyText(JSON.stringify({ ...errors, merchant_transaction_id: dup }));
    fields[STATUS_FIELD] = 'Failed';
    text += `${c.text.slice(from, c.lineStarts[i])}${fields.join('\t')}\n`;
    from = c.lineStarts[i + 1];
  }
  return text + c.text.slice(from);
}

/** A value in COPY's text format: NULL as \N; backslash, tab, newline and carriage return escaped. */
function copyText(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '\\N';
  const s = String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]) : s;
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const COPY_UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };
/** copyText's value back (never NULL here) */
const copyValue = (field: string) => field.replace(/\\([\\tnr])/g, (_, ch: string) => COPY_UNESCAPES[ch]);

// ---------- the reader thread ----------

/** The reader thread's messages: a chunk, the end, or why it stopped. */
export type ReaderMessage =
  | { type: 'chunk'; chunk: ChunkText }
  | { type: 'done' }
  | { type: 'refused'; message: string }
  | { type: 'failed'; message: string; stack?: string };

/** Chunks the reader may have ready ahead of the one being written: enough to keep both threads busy. */
const READ_AHEAD = 2;

const WORKER_URL = new URL('./stage-reader.worker.ts', import.meta.url);

/**
 * A reader thread kept between staging jobs, idle (at most one a process): a thread takes a few hundred milliseconds
 * to start and load its code, which a job would otherwise wait for before its first chunk, however small the file.
 * An idle thread does not keep the process alive (unref).
 */
let spare: Worker | null = null;

/** A reader thread, listened to for as long as it runs: its job's reader listens besides while it has one. */
function newThread(): Worker {
  const worker = new Worker(WORKER_URL);
  // an idle thread that fails or ends is no longer the spare (and its failure is not thrown at the process)
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    if (spare === worker) spare = null;
  });
  return worker;
}

/** A thread for a job: the spare one if there is one, otherwise a new one (a job beside another gets its own). */
function takeThread(): Worker {
  const worker = spare ?? newThread();
  spare = null;
  worker.ref();
  return worker;
}

/** A thread whose job finished goes back as the spare, or ends when there is one already. */
function giveBack(worker: Worker) {
  if (spare) return void worker.terminate();
  worker.unref();
  spare = worker;
}

/**
 * Starts the spare reader thread, so that the first staging job finds it ready: the job runner calls it as it
 * starts (workers.ts). It costs the process one idle thread.
 */
export function warmStagingReader(): void {
  if (spare) return;
  giveBack(newThread());
}

/** Ends the spare thread (the job runner's stop; tests). */
export async function closeStagingReaders(): Promise<void> {
  const worker = spare;
  spare = null;
  await worker?.terminate();
}

/**
 * chunkTextsOf on a thread of its own (stage-reader.worker.ts), a chunk or two ahead of the caller, never more: the
 * file is never held whole. The thread is the spare one when there is one (warmStagingReader), otherwise it starts
 * (and loads its code, a few hundred milliseconds) when the reader is made, so that it does while the staging job
 * readies the file; `chunks` gives it the file. A refusal of the file comes as FileRefused, as on this thread; any
 * other failure as an Error (the job is retried). `stop` gives the thread back as the spare once the file was read
 * to its end (or refused), or when it was never given one; otherwise (the caller stopped early: a failure while
 * writing) it ends the thread, whatever it was doing.
 */
export class StagingReader {
  private readonly worker = takeThread();
  private readonly queue: ReaderMessage[] = [];
  private wake: (() => void) | null = null;
  /** the thread failed or ended: it is never kept */
  private exited: Error | null = null;
  /** the thread has a file and has not said its last word on it (done, refused, failed) */
  private reading = false;
  private stopped = false;

  // (removed by name when the job is done: the Worker's own listeners, which start and stop its port, stay)
  private readonly onMessage = (m: ReaderMessage) => this.arrive(m);
  private readonly onError = (err: Error) => {
    this.exited = err;
    this.arrive({ type: 'failed', message: err.message, stack: err.stack });
  };
  private readonly onExit = (code: number) => {
    this.exited = new Error(`The staging reader stopped (exit code ${code})`);
    this.arrive(null);
  };

  constructor() {
    this.worker.on('message', this.onMessage).on('error', this.onError).on('exit', this.onExit);
  }

  private arrive(m: ReaderMessage | null) {
    if (m) this.queue.push(m);
    this.wake?.();
    this.wake = null;
  }

  async *chunks(input: ReaderInput): AsyncGenerator<ChunkText> {
    try {
      this.reading = true;
      this.worker.postMessage({ input, credit: READ_AHEAD });
      for (;;) {
        while (!this.queue.length) {
          if (this.exited) throw this.exited;
          await new Promise<void>((r) => (this.wake = r));
        }
        const m = this.queue.shift()!;
        if (m.type !== 'chunk') this.reading = false;
        if (m.type === 'done') return;
        if (m.type === 'refused') throw new FileRefused(m.message);
        if (m.type === 'failed') throw Object.assign(new Error(m.message), { stack: m.stack ?? m.message });
        this.worker.postMessage({ credit: 1 });
        yield m.chunk;
      }
    } finally {
      await this.stop();
    }
  }

  async stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.off('message', this.onMessage).off('error', this.onError).off('exit', this.onExit);
    // a thread never given a file (the job failed before reading it), or done with it, waits for the next
    if (!this.reading && !this.exited) return giveBack(this.worker);
    await this.worker.terminate();
  }
}

/** Benches only (bench/budget.bench.ts measures what the thread buys): false reads the file on the job's thread. */
export const readerThread = { on: true };

/** What a staging job reads its file's chunks with. */
export type ChunkReader = Pick<StagingReader, 'chunks' | 'stop'>;

/** A staging job's reader: on a thread of its own (StagingReader), or on this one when readerThread is off. */
export function stagingReader(): ChunkReader {
  return readerThread.on ? new StagingReader() : { chunks: chunkTextsOf, stop: async () => undefined };
}
