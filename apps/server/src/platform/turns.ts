import { setImmediate } from 'node:timers/promises';

/**
 * Lets the requests that arrived while a piece of long work held the event loop (PGlite runs its statements on it)
 * run before the next piece. One `setImmediate` is not always enough: work resumed by I/O (a worker thread's message,
 * a socket's data) runs in the loop's poll phase, and an immediate queued there fires in the check phase of the same
 * turn, before the next poll reads what arrived meanwhile, so a request would wait for the next piece as well (the
 * staging bench on PGlite: two chunks back to back, 148 ms, where one is 20-95 ms). An immediate queued in the check
 * phase fires in the next turn's, after its poll: the second one is always that.
 */
export async function yieldToRequests(): Promise<void> {
  await setImmediate();
  await setImmediate();
}
