import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { FileRefused, megabytes, num, type FileLimits, type ReadClock } from './file-limits.ts';

// The zip part of the .xlsx reader (xlsx.ts): the parts of the package, each inflated as a stream, counting the
// bytes it really produces (declared sizes are never trusted) against the caps of FileLimits.

export const CANNOT = 'The spreadsheet cannot be read';
export const NOT_XLSX = 'The spreadsheet cannot be read: it is not an .xlsx file';

export interface Ctx {
  zip: yauzl.ZipFile;
  limits: FileLimits;
  clock: ReadClock;
  /** inflated bytes of all parts so far */
  total: number;
}

/** Opens the zip by its central directory; refuses a file that is not one. */
export async function openZip(filePath: string): Promise<yauzl.ZipFile> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(filePath, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch (err) {
    throw new FileRefused(NOT_XLSX, { cause: err });
  }
  // failures reach us through the calls that meet them; an error event with no listener would end the process
  zip.on('error', () => undefined);
  return zip;
}

export async function listEntries(ctx: Ctx): Promise<Map<string, yauzl.Entry>> {
  const tooMany = () => new FileRefused(`${CANNOT}: it has more than ${num(ctx.limits.zipEntries)} parts`);
  if (ctx.zip.entryCount > ctx.limits.zipEntries) throw tooMany();
  const entries = new Map<string, yauzl.Entry>();
  for await (const entry of ctx.zip.eachEntry()) {
    if (entries.size >= ctx.limits.zipEntries) throw tooMany();
    const key = entry.fileName.toLowerCase();
    if (entries.has(key)) throw new FileRefused(CANNOT); // two parts of one name: which would Excel read?
    entries.set(key, entry);
    await ctx.clock.tick();
  }
  return entries;
}

export function resolveTarget(dir: string, target: string): string {
  const t = target.replace(/\\/g, '/');
  return t.startsWith('/') ? posix.normalize(t.slice(1)) : posix.normalize(posix.join(dir, t));
}

/** The bytes of one part, inflated as they are read; refused as soon as a size cap is passed. */
export async function* inflate(ctx: Ctx, entry: yauzl.Entry): AsyncGenerator<Buffer> {
  const { limits } = ctx;
  const tooLarge = () =>
    new FileRefused(`The spreadsheet is too large once unpacked (more than ${megabytes(limits.partBytes)})`);
  const tooLargeInAll = () =>
    new FileRefused(`The spreadsheet is too large once unpacked (more than ${megabytes(limits.totalBytes)} in all)`);
  if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8))
    throw new FileRefused(CANNOT);
  // what it declares only lets us refuse early; what it inflates to is counted below
  if (entry.uncompressedSize > limits.partBytes) throw tooLarge();
  const raw = await ctx.zip.openReadStreamPromise(entry, { decodeFileData: false });
  let stream: Readable = raw;
  if (entry.compressionMethod === 8) {
    const inflater = createInflateRaw({ chunkSize: 16 * 1024 });
    raw.on('error', (err) => inflater.destroy(err));
    stream = raw.pipe(inflater);
  }
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      ctx.total += chunk.length;
      if (bytes > limits.partBytes) throw tooLarge();
      if (ctx.total > limits.totalBytes) throw tooLargeInAll();
      yield chunk;
    }
  } finally {
    raw.unpipe();
    raw.destroy();
    stream.destroy();
  }
}
