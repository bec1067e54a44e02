import type { IncomingMessage, ServerResponse } from 'node:http';

const CLOCK_DATE = Symbol('market-stub.clock-date');

type DatedResponse = ServerResponse & { [CLOCK_DATE]?: string };

/**
 * Wraps a request handler so every answer's `Date` header (RFC 9110 §6.6.1, an IMF-fixdate) is on
 * the stub's clock: the clock date `YYYY-MM-DD` at the current UTC time of day. A deployment's
 * Date is its own idea of now, and `market-stub check` judges "past" against it, so a stub
 * serving `--clock 2026-01-01` is checked as of 2026-01-01, whatever day the check runs. The
 * header is rendered once per second. `clock` must be a calendar date (checked by the options).
 *
 * The value rides on the response and `write-reply.ts` puts it into the header object it hands to
 * `writeHead`: a `setHeader` here would send every answer down Node's slower writeHead path
 * (headers merged one `setHeader` at a time), which cost about 1 µs per request under load.
 */
export function withClockDate(handler: (req: IncomingMessage, res: ServerResponse) => void, clock: string): (req: IncomingMessage, res: ServerResponse) => void {
  const midnight = Date.parse(`${clock}T00:00:00Z`);
  let second = -1;
  let header = '';
  return (req, res) => {
    const now = Date.now();
    const current = Math.floor(now / 1000);
    if (current !== second) {
      second = current;
      header = new Date(midnight + (now % 86_400_000)).toUTCString();
    }
    (res as DatedResponse)[CLOCK_DATE] = header;
    handler(req, res);
  };
}

/** The `Date` value the stub's clock gives this response, or undefined when Node's own applies. */
export function clockDateOf(res: ServerResponse): string | undefined {
  return (res as DatedResponse)[CLOCK_DATE];
}
