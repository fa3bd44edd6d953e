import net from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { yieldToRequests } from './turns.ts';

// A request arriving while long work holds the event loop must run at the next yield, not after a second piece of
// the work, even when the work was resumed by I/O (the loop's poll phase), as staging is by its reader's messages.
describe('yieldToRequests', () => {
  const closers: (() => unknown)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('lets a request that arrived during a piece of work resumed by I/O run before the next piece', async () => {
    const seen: string[] = [];
    let resumed: (() => void) | null = null;
    const server = net.createServer((socket) =>
      socket.on('data', (d) => {
        seen.push(d.toString());
        if (d.toString() === 'work') resumed?.();
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => server.close(r)));
    const { port } = server.address() as net.AddressInfo;
    // the request comes from another thread, on a connection already open, while this one is busy; `sent` is set
    // once it is written (on the loopback: in this socket's buffer)
    const sent = new Int32Array(new SharedArrayBuffer(4));
    const requester = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const s = require('node:net').connect(workerData.port, '127.0.0.1', () => parentPort.postMessage('open'));
       parentPort.on('message', () => s.write('request', () => Atomics.store(workerData.sent, 0, 1)));`,
      { eval: true, workerData: { port, sent } },
    );
    closers.push(() => requester.terminate());
    await new Promise((r) => requester.once('message', r));
    const work = net.connect(port, '127.0.0.1');
    closers.push(() => work.destroy());
    await new Promise((r) => work.once('connect', r));

    const after = await new Promise<string[]>((done) => {
      resumed = () => {
        // a piece of work, resumed in the poll phase; the request arrives meanwhile
        requester.postMessage('send');
        const until = Date.now() + 10_000;
        while (Atomics.load(sent, 0) === 0 && Date.now() < until) {
          /* holding the event loop */
        }
        void yieldToRequests().then(() => done([...seen]));
      };
      work.write('work');
    });
    expect(after).toEqual(['work', 'request']);
  });
});
