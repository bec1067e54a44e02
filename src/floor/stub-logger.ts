/**
 * Where a stub writes its log records (the `logger` option of startMarketStub and createApp): the
 * three levels it uses, each called as `(fields, message)`. A pino logger fits as it is (the CLI
 * passes one), and so does any object with these three methods, e.g. `console`. Declared here,
 * not as pino's `Logger`, so the published types need neither pino's nor Node's type packages.
 * The loggers market-stub makes itself (the CLI's) come from src/logger.ts, the pino
 * implementation at the edge, which the compiler checks against this interface.
 */
export interface StubLogger {
  /** One request answered, a reload done: `fields` are structured (method, path, status, ms…). */
  info(fields: Record<string, unknown>, message: string): void;
  /** Something the user should look at; the stub carries on (invalid fixtures on reload). */
  warn(fields: Record<string, unknown>, message: string): void;
  /** A request the stub failed to answer (`fields.err` holds the error). */
  error(fields: Record<string, unknown>, message: string): void;
}
