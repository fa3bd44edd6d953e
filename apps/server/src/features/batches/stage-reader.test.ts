import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PAYMENT_MSG } from '@obol/contract';
import { describe, expect, it } from 'vitest';
import { FileRefused } from './parse.ts';
import {
  chunkTextsOf,
  closeStagingReaders,
  markDuplicates,
  StagingReader,
  warmStagingReader,
  type ChunkText,
  type ReaderInput,
} from './stage-reader.ts';
import { stagedIdOf } from './staged-ids.ts';

// Staging's reader: the file read and checked on a thread of its own, each chunk as COPY text. The database side
// (the look-up of ids, the COPY) is tested in stage.test.ts; here, the text, the marking of duplicates in it, and
// the thread: its chunks in order, never far ahead, and its refusals.
const HEADER = 'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount';
const dir = mkdtempSync(path.join(tmpdir(), 'obol-reader-'));
const fileOf = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};
const inputOf = (file: string, rows = 3): ReaderInput => ({
  file,
  format: 'csv',
  brands: ['acme brand'],
  rows,
  batchId: 'BREADER',
  seq: 7,
});

/** COPY text back into fields (its escapes undone; \N as null) */
const fieldsOf = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) =>
      line
        .split('\t')
        .map((f) =>
          f === '\\N' ? null : f.replace(/\\([\\tnr])/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r' })[c] ?? c),
        ),
    );

async function all<T>(source: AsyncIterable<T>) {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

describe('a chunk as COPY text', () => {
  it('holds every row as validateRow marks it, awkward characters escaped, and says which ids to look up', async () => {
    const file = fileOf(
      'awkward.csv',
      `${HEADER}\n"tab\there",100000001,A-1,Acme Brand,"back\\slash",150\n` +
        `"two\nlines",100000001,A-1,Acme Brand,r,abc\n` +
        `Zoë,12,A-2,Unknown,r,200\n` +
        `Ana,100000001,,Acme Brand,r,300\n`,
    );
    const [first, second] = await all(chunkTextsOf(inputOf(file)));
    expect(first.count).toBe(3);
    expect(second.count).toBe(1);
    const rows = fieldsOf(first.text);
    expect(rows.map((r) => r.slice(0, 10))).toEqual([
      [
        String(stagedIdOf(7, 2)),
        'BREADER',
        '2',
        'tab\there',
        '100000001',
        'A-1',
        'Acme Brand',
        'back\\slash',
        '150',
        '150',
      ],
      [String(stagedIdOf(7, 4)), 'BREADER', '4', 'two\nlines', '100000001', 'A-1', 'Acme Brand', 'r', 'abc', null],
      [String(stagedIdOf(7, 5)), 'BREADER', '5', 'Zoë', '12', 'A-2', 'Unknown', 'r', '200', '200'],
    ]);
    // the second A-1 is a duplicate in the file already; A-2 has errors of its own, but its id is looked up
    expect(rows.map((r) => [JSON.parse(r[10]!), r[11], r[12]])).toEqual([
      [{}, 'Pending', '0'],
      [{ amount: expect.any(String), merchant_transaction_id: PAYMENT_MSG.duplicateMtidInFile }, 'Failed', '0'],
      [{ obol_id: expect.any(String), brand: expect.any(String) }, 'Failed', '0'],
    ]);
    expect([...first.lookUpRows]).toEqual([0, 2]);
    expect(first.lookUpIds).toEqual(['A-1', 'A-2']);
    expect(first.earlierIds).toEqual([]);
    // a row's line, by its start
    expect(first.text.slice(first.lineStarts[1], first.lineStarts[2])).toMatch(/^\d+\tBREADER\t4\t/);
    expect(first.lineStarts[3]).toBe(first.text.length);
    // a missing id is never looked up
    expect(second.lookUpIds).toEqual([]);
    expect(fieldsOf(second.text)[0][12]).toBe('1');
  });

  it('marks the duplicates the database found, and only those rows', async () => {
    const file = fileOf(
      'dups.csv',
      `${HEADER}\n"a\tb",100000001,D-1,Acme Brand,"x\\y",150\nBo,100000001,D-2,Acme Brand,r,0\nCy,100000001,D-3,Acme Brand,r,5\n`,
    );
    const [c] = await all(chunkTextsOf(inputOf(file)));
    expect(markDuplicates(c, null)).toBe(c.text);
    const marked = fieldsOf(markDuplicates(c, { 'D-1': 'taken', 'D-2': 'in file' }));
    const before = fieldsOf(c.text);
    // the other fields as they were, awkward characters included
    expect(marked.map((r) => r.slice(0, 10))).toEqual(before.map((r) => r.slice(0, 10)));
    expect(marked.map((r) => [JSON.parse(r[10]!), r[11]])).toEqual([
      [{ merchant_transaction_id: 'taken' }, 'Failed'],
      [{ amount: expect.any(String), merchant_transaction_id: 'in file' }, 'Failed'],
      [{}, 'Pending'],
    ]);
  });
});

describe('the reader thread', () => {
  it('gives the chunks in order, as this thread reads them', async () => {
    const lines = Array.from({ length: 250 }, (_, i) => `Person ${i},100000001,T-${i % 200},Acme Brand,r,${i + 1}`);
    const file = fileOf('many.csv', `${HEADER}\n${lines.join('\n')}\n`);
    const here = await all(chunkTextsOf(inputOf(file, 40)));
    const reader = new StagingReader();
    const there: ChunkText[] = await all(reader.chunks(inputOf(file, 40)));
    expect(there.map((c) => c.text)).toEqual(here.map((c) => c.text));
    expect(there.map((c) => [...c.lookUpRows])).toEqual(here.map((c) => [...c.lookUpRows]));
    expect(there.map((c) => c.earlierIds)).toEqual(here.map((c) => c.earlierIds));
    // ids 0-49 come again from row 202 on: in a later chunk, so looked up among the earlier chunks' rows
    expect(there.flatMap((c) => c.earlierIds)).toEqual(Array.from({ length: 50 }, (_, i) => `T-${i}`));
  });

  it('is never more than a few chunks ahead of the caller', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `Person ${i},100000001,W-${i},Acme Brand,r,1`);
    const file = fileOf('wait.csv', `${HEADER}\n${lines.join('\n')}\n`);
    const reader = new StagingReader();
    const chunks = reader.chunks(inputOf(file, 10));
    await chunks.next();
    // the caller holds the first chunk: the thread reads ahead up to its credit, then waits
    await new Promise((r) => setTimeout(r, 500));
    const waiting = (reader as unknown as { queue: unknown[] }).queue.length;
    expect(waiting).toBeGreaterThan(0);
    expect(waiting).toBeLessThanOrEqual(3);
    await chunks.return(undefined);
  });

  it('passes a refusal of the file on as FileRefused, with its reason', async () => {
    const reader = new StagingReader();
    const file = fileOf('bad.csv', `name,amount\nAna,1\n`);
    const err = await all(reader.chunks(inputOf(file))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileRefused);
    expect((err as Error).message).toMatch(/^The columns must be/);
  });

  it('stops its thread when the caller stops early', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `Person ${i},100000001,S-${i},Acme Brand,r,1`);
    const reader = new StagingReader();
    const worker = (reader as unknown as { worker: { threadId: number } }).worker;
    const exited = new Promise<number>((r) =>
      (worker as unknown as NodeJS.EventEmitter).once('exit', (code: number) => r(code)),
    );
    for await (const c of reader.chunks(inputOf(fileOf('early.csv', `${HEADER}\n${lines.join('\n')}\n`), 10))) {
      expect(c.count).toBe(10);
      break;
    }
    await expect(exited).resolves.toBeTypeOf('number');
  });

  it('keeps a thread whose file was read to its end for the next job, and one only', async () => {
    await closeStagingReaders();
    const threadOf = (r: StagingReader) => (r as unknown as { worker: { threadId: number } }).worker.threadId;
    const lines = Array.from({ length: 30 }, (_, i) => `Person ${i},100000001,K-${i},Acme Brand,r,1`);
    const file = fileOf('kept.csv', `${HEADER}\n${lines.join('\n')}\n`);
    warmStagingReader();
    const first = new StagingReader();
    const beside = new StagingReader(); // a job beside it gets a thread of its own
    expect(threadOf(beside)).not.toBe(threadOf(first));
    const a = await all(first.chunks(inputOf(file, 7)));
    // the next job gets the same thread, and reads its own file from the start, with its own credit
    const second = new StagingReader();
    expect(threadOf(second)).toBe(threadOf(first));
    const b = await all(second.chunks(inputOf(file, 7)));
    expect(b.map((c) => c.text)).toEqual(a.map((c) => c.text));
    // a refusal leaves the thread waiting for the next file too
    const third = new StagingReader();
    expect(threadOf(third)).toBe(threadOf(first));
    await expect(all(third.chunks(inputOf(fileOf('bad2.csv', 'x,y\n1,2\n'))))).rejects.toBeInstanceOf(FileRefused);
    // a second finished thread is not kept beside the spare: it ends
    const exited = new Promise((r) => (beside as unknown as { worker: NodeJS.EventEmitter }).worker.once('exit', r));
    await all(beside.chunks(inputOf(file, 7)));
    await exited;
    // a reader never given a file (its job failed before reading) gives its thread back too
    const unused = new StagingReader();
    expect(threadOf(unused)).toBe(threadOf(first));
    await unused.stop();
    const last = new StagingReader();
    expect(threadOf(last)).toBe(threadOf(first));
    await last.stop();
    await closeStagingReaders();
  });
});
