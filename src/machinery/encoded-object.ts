/**
 * An object held as its JSON text (with resourceVersion set), parsed only on demand. Reads and
 * watches hand these around so that a JSON response is the stored text, written as is.
 */
export class EncodedObject {
  constructor(readonly json: string) {}

  /** A fresh, mutable copy of the object. */
  parse<T = Record<string, unknown>>(): T {
    return JSON.parse(this.json) as T;
  }

  static of(obj: unknown): EncodedObject {
    return new EncodedObject(JSON.stringify(obj));
  }
}

/** A watch event as the endpoints encode it. `memo` lets every watcher of one event share encodings. */
export interface WatchItem {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: EncodedObject;
  revision: number;
  memo?: Map<string, unknown>;
}
