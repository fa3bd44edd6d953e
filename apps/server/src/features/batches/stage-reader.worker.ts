// The staging reader's thread (StagingReader in stage-reader.ts): given the file, reads and checks it chunk by chunk,
// and posts each chunk's COPY text once the staging job has room for it (a credit a chunk), so it is never more than
// a few chunks ahead.
import { parentPort } from 'node:worker_threads';
import { FileRefused } from './parse.ts';
import { chunkTextsOf, type ReaderInput, type ReaderMessage } from './stage-reader.ts';

const port = parentPort!;
let input: ReaderInput | null = null;
let credit = 0;
let more: (() => void) | null = null;
port.on('message', (m: { input?: ReaderInput; credit: number }) => {
  input ??= m.input ?? null;
  credit += m.credit;
  more?.();
  more = null;
});
const post = (m: ReaderMessage) => port.postMessage(m);

try {
  while (!input) await new Promise<void>((r) => (more = r));
  for await (const chunk of chunkTextsOf(input)) {
    while (credit <= 0) await new Promise<void>((r) => (more = r));
    credit -= 1;
    post({ type: 'chunk', chunk });
  }
  post({ type: 'done' });
} catch (err) {
  if (err instanceof FileRefused) post({ type: 'refused', message: err.message });
  else post({ type: 'failed', message: (err as Error)?.message ?? String(err), stack: (err as Error)?.stack });
}
// the staging job ends the thread (Worker.terminate) once it has what it needs
