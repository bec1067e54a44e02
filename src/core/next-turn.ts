/**
 * Resolves after the event loop has had a turn: timers, I/O and other requests waiting run first.
 * A timer of 0 ms, the one way every JavaScript runtime has (HTML's timer steps; Node, Deno, Bun
 * and workerd alike); Node makes it at least 1 ms. Long work (indexing a large catalog, warming a
 * generated one, the admin API's parse and run) awaits it between slices so the server keeps answering.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
}
