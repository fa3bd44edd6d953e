import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type yauzl from 'yauzl';
import { FileRefused, num } from './file-limits.ts';
import { CANNOT, inflate, type Ctx } from './xlsx-zip.ts';

// The XML part of the .xlsx reader (xlsx.ts): one part streamed through a SAX parser (saxes), every XML cap of
// FileLimits checked as the characters arrive.

/** characters handed to the XML parser at a time: its buffers are checked between two writes */
const WRITE_CHARS = 16 * 1024;

/** The parser's buffers, which it fills until a token ends: checked between writes so none outgrows its cap. */
interface SaxBuffers {
  text: string;
  name: string;
  piTarget: string;
  entity: string;
  tags: unknown[];
  attribList: unknown[];
}
const buffersOf = (p: SaxesParser) => p as unknown as SaxBuffers;
{
  // fail loudly at start-up if a saxes release renames what we watch
  const b = buffersOf(new SaxesParser());
  for (const k of ['text', 'name', 'piTarget', 'entity'] as const)
    if (typeof b[k] !== 'string') throw new Error(`saxes: no ${k} buffer`);
  if (!Array.isArray(b.tags) || !Array.isArray(b.attribList)) throw new Error('saxes: no tag or attribute list');
}

export interface XmlHandlers {
  open(tag: SaxesTagPlain, name: string): void;
  close(name: string): void;
  text(text: string): void;
  /** the refusal when a text outgrows xmlTokenChars before it ends */
  overflow(): FileRefused;
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** Streams one XML part through saxes, yielding what the handlers emit as it goes. */
export async function* parseXml<T>(
  ctx: Ctx,
  entry: yauzl.Entry,
  wire: (emit: (item: T) => void) => XmlHandlers,
): AsyncGenerator<T> {
  const { limits } = ctx;
  const out: T[] = [];
  const h = wire((item) => out.push(item));
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('doctype', () => {
    throw new FileRefused(CANNOT); // no DTD in an .xlsx part
  });
  const buf = buffersOf(parser);
  let elements = 0;
  parser.on('opentag', (tag) => {
    if (buf.tags.length > limits.xmlDepth) throw new FileRefused(CANNOT);
    if (++elements > limits.xmlElements)
      throw new FileRefused(
        `The spreadsheet is too large (more than ${num(limits.xmlElements)} XML elements in one part)`,
      );
    h.open(tag, localName(tag.name));
  });
  parser.on('closetag', (tag) => h.close(localName(tag.name)));
  parser.on('text', (t) => h.text(t));
  parser.on('cdata', (t) => h.text(t));
  const guard = () => {
    if (buf.text.length > limits.xmlTokenChars) throw h.overflow();
    if (
      buf.name.length > limits.xmlTokenChars ||
      buf.piTarget.length > limits.xmlTokenChars ||
      buf.entity.length > limits.xmlTokenChars ||
      buf.attribList.length > limits.xmlAttributes ||
      buf.tags.length > limits.xmlDepth
    )
      throw new FileRefused(CANNOT);
  };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of inflate(ctx, entry)) {
    const text = decoder.decode(chunk, { stream: true });
    for (let i = 0; i < text.length; i += WRITE_CHARS) {
      parser.write(text.slice(i, i + WRITE_CHARS));
      guard();
      if (out.length) yield* out.splice(0);
      await ctx.clock.tick();
    }
  }
  parser.write(decoder.decode());
  parser.close();
  if (out.length) yield* out.splice(0);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Text gathered for one value, kept up to the field cap (past it only the fact that it is too long). */
export class Capture {
  text = '';
  tooLong = false;
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  add(t: string) {
    if (this.tooLong) return;
    if (this.text.length + t.length > this.max) {
      this.tooLong = true;
      this.text = '';
    } else this.text += t;
  }
}
