import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { crc32, inflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { ZipTooLarge, ZipWriter } from './zip.ts';

/** Everything written to a stream (never ended by the writer: the test ends it). */
function sink() {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, bytes: () => Buffer.concat(chunks) };
}

interface Part {
  name: string;
  data: Buffer;
  crc: number;
  compressedSize: number;
  method: number;
}

/** The parts of a zip as yauzl reads them by its central directory, each inflated and its CRC-32 checked. */
async function readZip(bytes: Buffer): Promise<Part[]> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  const parts: Part[] = [];
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    const data = Buffer.concat(chunks);
    expect(crc32(data)).toBe(entry.crc32);
    parts.push({
      name: entry.fileName,
      data,
      crc: entry.crc32,
      compressedSize: entry.compressedSize,
      method: entry.compressionMethod,
    });
  }
  zip.close();
  return parts;
}

describe('ZipWriter', () => {
  it('writes whole and streamed parts that a zip reader lists, inflates and checks', async () => {
    const out = sink();
    const zip = new ZipWriter(out.stream, new Date(2026, 10, 27, 6, 30, 10));
    await zip.add('[Content_Types].xml', '<Types/>');
    await zip.add('xl/é.xml', Buffer.from('accented name'));
    const big = zip.stream('xl/worksheets/sheet1.xml');
    const pieces = Array.from({ length: 40 }, (_, i) =>
      Buffer.from(`<row r="${i}">${randomBytes(3000).toString('hex')}</row>`.repeat(5)),
    );
    for (const p of pieces) await big.write(p);
    await big.write(Buffer.alloc(0));
    await big.end();
    await zip.finish();
    out.stream.end();

    const parts = await readZip(out.bytes());
    expect(parts.map((p) => p.name)).toEqual(['[Content_Types].xml', 'xl/é.xml', 'xl/worksheets/sheet1.xml']);
    expect(parts[0].data.toString()).toBe('<Types/>');
    expect(parts[1].data.toString()).toBe('accented name');
    expect(parts[2].data.equals(Buffer.concat(pieces))).toBe(true);
    expect(parts.every((p) => p.method === 8)).toBe(true);
    // deflated: hex text packs to about half
    expect(parts[2].compressedSize).toBeLessThan(parts[2].data.length * 0.7);

    // the streamed part's local header defers its CRC and sizes to a data descriptor after its data
    const bytes = out.bytes();
    const at = bytes.indexOf(Buffer.from('xl/worksheets/sheet1.xml')) - 30;
    expect(bytes.readUInt32LE(at)).toBe(0x04034b50);
    expect(bytes.readUInt16LE(at + 6) & 0x0008).toBe(0x0008);
    expect(bytes.readUInt32LE(at + 14)).toBe(0);
    // the time written is the one given (local, in two-second steps)
    expect(bytes.readUInt16LE(10)).toBe((6 << 11) | (30 << 5) | 5);
    expect(bytes.readUInt16LE(12)).toBe(((2026 - 1980) << 9) | (11 << 5) | 27);
  });

  it('writes an empty streamed part', async () => {
    const out = sink();
    const zip = new ZipWriter(out.stream);
    const s = zip.stream('empty.xml');
    await s.end();
    await zip.finish();
    out.stream.end();
    const [part] = await readZip(out.bytes());
    expect(part.name).toBe('empty.xml');
    expect(part.data.length).toBe(0);
  });

  it('waits for a slow destination, and keeps the order of what it writes', async () => {
    const held: (() => void)[] = [];
    const got: Buffer[] = [];
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, cb) {
        got.push(chunk);
        held.push(cb);
      },
    });
    const zip = new ZipWriter(slow);
    const s = zip.stream('random.bin');
    // random bytes do not compress: what is written is what the destination must take
    const pieces = Array.from({ length: 64 }, () => randomBytes(256 * 1024));
    let written = 0;
    const producing = (async () => {
      for (const p of pieces) {
        await s.write(p);
        written++;
      }
      await s.end();
      await zip.finish();
    })();
    await new Promise((r) => setTimeout(r, 300));
    // held back by the destination: a few pieces in the deflater's buffers, not all 16 MiB
    expect(written).toBeLessThan(16);
    const pump = setInterval(() => held.splice(0).forEach((cb) => cb()), 1);
    await producing;
    // what the destination still buffers goes through too
    while (slow.writableLength > 0) await new Promise((r) => setTimeout(r, 5));
    clearInterval(pump);
    const [part] = await readZip(Buffer.concat(got));
    expect(part.data.equals(Buffer.concat(pieces))).toBe(true);
  });

  it('refuses a part past its size limit, and another part while one is streamed', async () => {
    const out = sink();
    const zip = new ZipWriter(out.stream, new Date(), 1000);
    const s = zip.stream('sheet.xml');
    await expect(zip.add('other.xml', 'x')).rejects.toThrow('still being written');
    await s.write(Buffer.alloc(600));
    await expect(s.write(Buffer.alloc(600))).rejects.toBeInstanceOf(ZipTooLarge);
  });

  it('deflates a whole part as zlib inflates it back', async () => {
    const out = sink();
    const zip = new ZipWriter(out.stream);
    const body = 'a'.repeat(10_000);
    await zip.add('a.txt', body);
    await zip.finish();
    out.stream.end();
    const bytes = out.bytes();
    const nameLength = bytes.readUInt16LE(26);
    const compressed = bytes.readUInt32LE(18);
    expect(inflateRawSync(bytes.subarray(30 + nameLength, 30 + nameLength + compressed)).toString()).toBe(body);
  });
});
