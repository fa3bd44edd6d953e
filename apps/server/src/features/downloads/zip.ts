import { once } from 'node:events';
import type { TransformOptions, Writable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync, type ZlibOptions } from 'node:zlib';

/** Past this, a size or an offset needs ZIP64, which this writer does not write. */
const ZIP32_MAX = 0xffffffff;
/** flag bit 3: the entry's CRC and sizes follow its data (a data descriptor), as they are known only then */
const DESCRIPTOR = 0x0008;
const DEFLATE = 8;

interface Entry {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** Too much for a zip without ZIP64 (4 GiB): far more rows than a spreadsheet opens. */
export class ZipTooLarge extends Error {}

/** A part being written as a stream: deflated as it comes. */
export interface ZipStreamEntry {
  write(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
}

/** The time and date of `d` in MS-DOS's form (local time, two-second steps), as zip headers hold them. */
function dosTime(d: Date): [number, number] {
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1);
  const date = ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  return [time, date];
}

/**
 * A zip archive written to `out` as it is made, for an export's XLSX (issue 21): small parts whole, then one large
 * part streamed, deflated (zlib's level 1, in the thread pool) with its CRC-32 from zlib's native crc32. Memory
 * stays flat whatever the size: nothing is held but the entries' names and sizes. Every write waits for `out` to
 * drain. `out` is not ended (the file store ends it when it commits).
 *
 * No ZIP64: a part or an archive past 4 GiB fails with ZipTooLarge (about four million exported rows, where a
 * spreadsheet opens at most 1,048,576).
 */
export class ZipWriter {
  private readonly out: Writable;
  private readonly entries: Entry[] = [];
  private offset = 0;
  private readonly time: number;
  private readonly date: number;
  private open = false;
  private readonly limit: number;

  /** `limit`: the largest size or offset written (a test's smaller one stands for ZIP32_MAX) */
  constructor(out: Writable, modified = new Date(), limit = ZIP32_MAX) {
    this.out = out;
    [this.time, this.date] = dosTime(modified);
    this.limit = Math.min(limit, ZIP32_MAX);
  }

  /** writes to `out`; unless `wait` is false, waits for `out` to drain when it asks to */
  private async put(bytes: Buffer, wait = true) {
    this.offset += bytes.length;
    if (!this.out.write(bytes) && wait) await once(this.out, 'drain');
  }

  private localHeader(e: Entry): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    h.writeUInt16LE(e.flags, 6);
    h.writeUInt16LE(DEFLATE, 8);
    h.writeUInt16LE(this.time, 10);
    h.writeUInt16LE(this.date, 12);
    // with a data descriptor these three are zero here
    h.writeUInt32LE(e.flags & DESCRIPTOR ? 0 : e.crc, 14);
    h.writeUInt32LE(e.flags & DESCRIPTOR ? 0 : e.compressed, 18);
    h.writeUInt32LE(e.flags & DESCRIPTOR ? 0 : e.size, 22);
    h.writeUInt16LE(e.name.length, 26);
    h.writeUInt16LE(0, 28); // no extra field
    return Buffer.concat([h, e.name]);
  }

  private entry(name: string, flags: number): Entry {
    if (this.open) throw new Error('a zip part is still being written');
    if (this.offset > this.limit) throw new ZipTooLarge('The file is too large for XLSX; export it as CSV');
    // flag bit 11: the name is UTF-8 (needed only past ASCII)
    const utf8 = /[^\x20-\x7e]/.test(name) ? 0x0800 : 0;
    return {
      name: Buffer.from(name, 'utf8'),
      flags: flags | utf8,
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.offset,
    };
  }

  /** A small part, whole: handed to `out` at once, without waiting for it to drain (a few KiB at most). */
  async add(name: string, body: string | Buffer): Promise<void> {
    const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const packed = deflateRawSync(data);
    const e = { ...this.entry(name, 0), crc: crc32(data), compressed: packed.length, size: data.length };
    this.entries.push(e);
    await this.put(this.localHeader(e), false);
    await this.put(packed, false);
  }

  /** A large part, written piece by piece; `end` it before the next part or `finish`. */
  stream(name: string): ZipStreamEntry {
    const e = this.entry(name, DESCRIPTOR);
    this.entries.push(e);
    this.open = true;
    const started = this.put(this.localHeader(e));
    // level 1: deflate's fast path; XML this repetitive still shrinks about tenfold. Output in pieces as large as
    // the input's (an export passes 256 KiB at a time): zlib's default 16 KiB made many times the callbacks and
    // buffers. Up to 1 MiB taken before the writer waits (zlib's default 16 KiB stopped the caller at every
    // piece, so it could not prepare the next one while the thread pool deflated)
    const options: ZlibOptions & TransformOptions = {
      level: 1,
      chunkSize: 256 * 1024,
      writableHighWaterMark: 1024 * 1024,
    };
    const deflate = createDeflateRaw(options);
    let failed: Error | null = null;
    const failure = new Promise<never>((_, reject) =>
      deflate.once('error', (err) => {
        failed = err;
        reject(err);
      }),
    );
    failure.catch(() => undefined);
    // what zlib gives is written to `out` in order, each piece after `out` drained from the last
    let writing: Promise<void> = started;
    deflate.on('data', (piece: Buffer) => {
      e.compressed += piece.length;
      deflate.pause();
      writing = writing.then(() => this.put(piece)).then(() => void deflate.resume());
      writing.catch((err: Error) => deflate.destroy(err));
    });
    const wait = (p: Promise<unknown>) => Promise.race([p, failure]);
    return {
      write: async (bytes) => {
        if (failed) throw failed;
        if (!bytes.length) return;
        e.crc = crc32(bytes, e.crc);
        e.size += bytes.length;
        if (e.size > this.limit) throw new ZipTooLarge('The file is too large for XLSX; export it as CSV');
        if (!deflate.write(bytes)) await wait(once(deflate, 'drain'));
      },
      end: async () => {
        const ended = once(deflate, 'end');
        deflate.end();
        await wait(ended);
        await wait(writing);
        if (e.compressed > this.limit) throw new ZipTooLarge('The file is too large for XLSX; export it as CSV');
        const d = Buffer.alloc(16);
        d.writeUInt32LE(0x08074b50, 0);
        d.writeUInt32LE(e.crc, 4);
        d.writeUInt32LE(e.compressed, 8);
        d.writeUInt32LE(e.size, 12);
        await this.put(d);
        this.open = false;
      },
    };
  }

  /** The central directory and its end record: the archive is complete. */
  async finish(): Promise<void> {
    if (this.open) throw new Error('a zip part is still being written');
    const start = this.offset;
    const records = this.entries.map((e) => {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
      c.writeUInt16LE(20, 6); // version needed
      c.writeUInt16LE(e.flags, 8);
      c.writeUInt16LE(DEFLATE, 10);
      c.writeUInt16LE(this.time, 12);
      c.writeUInt16LE(this.date, 14);
      c.writeUInt32LE(e.crc, 16);
      c.writeUInt32LE(e.compressed, 20);
      c.writeUInt32LE(e.size, 24);
      c.writeUInt16LE(e.name.length, 28);
      // extra field, comment, disk number, internal and external attributes: none
      c.writeUInt32LE(e.offset, 42);
      return Buffer.concat([c, e.name]);
    });
    const directory = Buffer.concat(records);
    if (start > this.limit) throw new ZipTooLarge('The file is too large for XLSX; export it as CSV');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.put(directory);
    await this.put(end);
  }
}
