/**
 * Why an answer came, as data (docs/explain.md): what the request core decided for one request.
 * The `Market-Stub-Explain` header (src/runtime/explain.ts), the journal entry's `explain` and the
 * HAR export's `_marketStubExplain` are this one record. Built only for a request that asks (the
 * `explain` option, or `Prefer: explain`), so an answer nobody asked to explain costs nothing more.
 */
export interface Explanation {
  /** Deviations that shaped the answer, by catalogue name, in the order applied; ` (Prefer)` marks one asked for by `Prefer: deviation=`. */
  deviations: string[];
  /** Behaviours applied (`delay=200 (rule r1)`, `status=503`), as the journal's `behaviour` names them, deviations left out. */
  behaviour: string[];
  /** Behaviour rules this request matched, each with the applications of its `times` left after this one (`left` absent: until removed). */
  rules: { id: string; left?: number }[];
  /** The response profile in force: list envelope (`bare` or its key), paging dialect (`none`, `offset`, `cursor`), error shape. */
  profile: { envelope: string; paging: string; errors: string };
  /** The stub instant the answer was made at (its `Date` header), ISO 8601 UTC to the second. */
  instant: string;
}
