/**
 * Writes a watch's events to its response without ever holding more than a bounded amount for a
 * client that does not read:
 * - the socket: once more than HIGH_WATER_BYTES wait in the response's buffer (the kernel's send
 *   buffer being full), no further event is taken from the source until the socket drains;
 * - the source (the watch cache's queue for this watcher) is bounded by the cache, which closes the
 *   watcher when the client falls too far behind; a writer waiting for the socket learns of it at
 *   once (`whenClosed`) and stops;
 * - the end: the response is ended (what is buffered and the final chunk go out if the client reads
 *   again), and destroyed when it has not finished within ABANDON_AFTER_MS, so a client that never
 *   reads cannot keep a socket and its buffer forever.
 */
import type { ServerResponse } from 'node:http';
import type { HttpResponse } from '../../http/listener.js';

/** Bytes a watch response may buffer before its writer waits for the client to read. */
const HIGH_WATER_BYTES = 1 << 20;
/** How long an ended watch response may wait for its client to read the rest. */
const ABANDON_AFTER_MS = 5_000;

/** A watch's events; `whenClosed` (optional) settles when the producer closes them, whatever is still queued. */
export interface WatchSource<T> extends AsyncIterable<T> {
  whenClosed?(): Promise<void>;
}

/** Why the writer stopped: the events ended, the client went away or the request ended, or the socket stayed full until the watcher was closed. */
export type WatchEnd = 'ended' | 'stopped' | 'dropped';

export async function writeWatch<T>(response: HttpResponse, events: WatchSource<T>, encode: (item: T) => string | Buffer, signal: AbortSignal): Promise<WatchEnd> {
  // HTTP/2's compatibility response offers every member used here; what it buffers lives on its stream.
  const res = response as ServerResponse;
  const buffered = (): number => ('stream' in response ? response.stream.writableLength : res.writableLength);
  const it = events[Symbol.asyncIterator]();
  // One listener each for the whole stream: a drain wait must not add listeners that outlive it.
  let wake: ((why: 'drain' | 'stop' | 'dropped') => void) | undefined;
  let sourceClosed = false;
  const onStop = (): void => wake?.('stop');
  const onDrain = (): void => wake?.('drain');
  signal.addEventListener('abort', onStop, { once: true });
  res.on('close', onStop);
  res.on('drain', onDrain);
  void events.whenClosed?.().then(() => {
    sourceClosed = true;
    wake?.('dropped');
  });
  let end: WatchEnd = 'ended';
  try {
    for (;;) {
      const r = await it.next();
      if (r.done) break;
      if (res.destroyed || signal.aborted) {
        end = 'stopped';
        break;
      }
      if (res.write(encode(r.value)) || buffered() <= HIGH_WATER_BYTES) continue;
      // The client reads slower than events come: take nothing more until it catches up.
      const why = await new Promise<'drain' | 'stop' | 'dropped'>((resolve) => {
        wake = resolve;
        if (signal.aborted || res.destroyed) resolve('stop');
        else if (sourceClosed) resolve('dropped');
      });
      wake = undefined;
      if (why !== 'drain') {
        end = why === 'stop' ? 'stopped' : 'dropped';
        break;
      }
    }
  } catch {
    // The watcher fell behind and was closed, or the store went away: clients resume from their last version.
    end = 'dropped';
  } finally {
    signal.removeEventListener('abort', onStop);
    res.off('close', onStop);
    res.off('drain', onDrain);
    void it.return?.();
  }
  endOrAbandon(res);
  return end;
}

/** Ends the response; destroys it when the client has not taken the rest in time. */
function endOrAbandon(res: ServerResponse): void {
  if (res.destroyed) return;
  res.end();
  if (res.writableFinished ?? res.finished) return;
  const timer = setTimeout(() => res.destroy(), ABANDON_AFTER_MS);
  timer.unref();
  const clear = (): void => clearTimeout(timer);
  res.once('finish', clear);
  res.once('close', clear);
}
