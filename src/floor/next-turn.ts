/** `setImmediate` where the runtime has one (Node, Bun, Deno), read off globalThis so nothing here needs Node's types. */
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;

/**
 * Resolves after the event loop has had a turn: I/O and other requests waiting run first.
 * Where the runtime has `setImmediate` (Node, Bun, Deno), that: it runs right after this turn's I/O,
 * so an answer is written before the loop reads a client's end of stream (a client that half-closes
 * after its request still gets it: test/network/singleton-headers.test.ts). Elsewhere (browsers,
 * workerd) a timer of 0 ms, the one way every JavaScript runtime has (HTML's timer steps), which
 * Node would make at least 1 ms. Long work (indexing a large catalog, warming a generated one, the
 * admin API's parse and run) awaits it between slices so the server keeps answering.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => (immediate === undefined ? setTimeout(resolve, 0) : immediate(resolve)));
}
