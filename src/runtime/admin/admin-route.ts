import type { StubControls } from '../stub-controls.js';
import type { StubRuntime } from '../stub-runtime.js';

/** What an admin handler answers: a status and a JSON value, or the JSON text in chunks (large reads). */
export interface AdminAnswer {
  status: number;
  body?: unknown;
  /** JSON text in pieces, written with backpressure so a large read never holds the event loop. */
  chunks?: Iterable<string>;
}

/** What a handler gets: path parameters (decoded), the parsed JSON body, the query, and `where` (`PUT /__stub/markets/{id}`). */
export interface AdminContext {
  params: Record<string, string>;
  body: unknown;
  query: URLSearchParams;
  where: string;
  controls: StubControls;
  runtime: StubRuntime;
}

/** One admin route as data: method, path template under /__stub (`/markets/{id}`), what it does, and its handler. */
export interface AdminRoute {
  method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  describe: string;
  /** Whether the route reads a JSON body (only those are read; others ignore one). */
  body?: boolean;
  run(context: AdminContext): AdminAnswer;
}

/** A JSON array written in chunks of `size` items (each chunk serialised on its own). */
export function* jsonArrayChunks<T>(items: readonly T[], size = 500): Generator<string> {
  yield '[';
  for (let from = 0; from < items.length; from += size) {
    const part = JSON.stringify(items.slice(from, from + size));
    yield `${from === 0 ? '' : ','}${part.slice(1, -1)}`;
  }
  yield ']';
}
