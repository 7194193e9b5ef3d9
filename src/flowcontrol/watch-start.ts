/**
 * When a watch has started, for flow control: a watch holds its seat only until then, as in
 * Kubernetes (where the storage layer signals it). Here the sign is the response beginning: the
 * watch handler sends its headers once the watch is registered. Ending early (an error, a refusal)
 * counts too.
 */
import type { ServerResponse } from 'node:http';
import type { HttpResponse } from '../http/listener.js';

/** Resolves once `response` has begun (headers or body sent) or `running` settles, whichever is first. Never rejects. */
export function untilResponseStarts(response: HttpResponse, running: Promise<unknown>): Promise<void> {
  const res = response as ServerResponse;
  if (res.headersSent) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const methods = ['writeHead', 'flushHeaders', 'write', 'end'] as const;
    const originals = methods.map((m) => [m, res[m]] as const);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve();
    };
    for (const [m, fn] of originals) {
      (res as unknown as Record<string, unknown>)[m] = function (this: ServerResponse, ...args: unknown[]) {
        const result = (fn as (...a: unknown[]) => unknown).apply(this, args);
        // Left in place (another wrapper may sit on top); after the first call it only passes through.
        if (!done) finish();
        return result;
      };
    }
    running.then(finish, finish);
  });
}
