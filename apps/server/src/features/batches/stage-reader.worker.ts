// The staging reader's thread (StagingReader in stage-reader.ts): given a file, reads and checks it chunk by chunk,
// and posts each chunk's COPY text once the staging job has room for it (a credit a chunk), so it is never more than
// a few chunks ahead. Then it waits for the next file: a thread serves one job after another (the spare thread).
import { parentPort } from 'node:worker_threads';
import { FileRefused } from './parse.ts';
import { chunkTextsOf, type ReaderInput, type ReaderMessage } from './stage-reader.ts';

const port = parentPort!;
let input: ReaderInput | null = null;
let credit = 0;
let more: (() => void) | null = null;
port.on('message', (m: { input?: ReaderInput; credit: number }) => {
  if (m.input) {
    // a new file: its own credit (one left over from the last file is not carried)
    input = m.input;
    credit = m.credit;
  } else credit += m.credit;
  more?.();
  more = null;
});
const post = (m: ReaderMessage) => port.postMessage(m);

for (;;) {
  while (!input) await new Promise<void>((r) => (more = r));
  const file = input;
  input = null;
  try {
    for await (const chunk of chunkTextsOf(file)) {
      while (credit <= 0) await new Promise<void>((r) => (more = r));
      credit -= 1;
      post({ type: 'chunk', chunk });
    }
    post({ type: 'done' });
  } catch (err) {
    if (err instanceof FileRefused) post({ type: 'refused', message: err.message });
    else post({ type: 'failed', message: (err as Error)?.message ?? String(err), stack: (err as Error)?.stack });
  }
}
