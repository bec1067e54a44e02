// The logging edge: the one module that makes loggers (pino; pino-pretty for text lines). What a
// stub needs of a logger is the StubLogger interface (floor/stub-logger.ts), kept on the floor so the
// platform-neutral core and the published types need neither pino nor Node. Every logger made here
// satisfies it (the compiler checks each `satisfies StubLogger` below), so the CLI hands its pino
// logger to the stub as it is, and a library user may pass any object with the three methods.
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { escapeInvisiblesInJson } from './floor/display-value.js';
import type { StubLogger } from './floor/stub-logger.js';

const require = createRequire(import.meta.url);

/** How log lines are written: `text` for people, `json` (one pino object per line) for machines. */
export type LogFormat = 'text' | 'json';

/** `auto` is text on a terminal, json otherwise (pipes, files, containers, CI). */
export function resolveLogFormat(format: LogFormat | 'auto', isTTY: boolean): LogFormat {
  return format === 'auto' ? (isTTY ? 'text' : 'json') : format;
}

export interface LoggerOptions {
  format: LogFormat;
  /** Where lines go: a file descriptor (default 1, stdout) or a stream. */
  destination?: NodeJS.WritableStream | number;
  /** Colour text lines (only for `text`). */
  colorize?: boolean;
  /**
   * Most bytes of `json` lines a file-descriptor destination holds while it cannot write them (a
   * pipe nobody reads, a stalled terminal); lines past it are dropped whole, never cut.
   * @default LOG_BUFFER_MAX_BYTES (16 MiB)
   */
  maxBufferBytes?: number;
  /**
   * Told when lines start being dropped (`dropping`, 0 lines so far) and, once the destination has
   * written everything it held, how many were dropped (`resumed`). Default: nothing is told.
   */
  onDrop?: (event: LogDropEvent) => void;
  /**
   * Rewrites each serialised record before it reaches the destination (pino's `hooks.streamWrite`):
   * the proxy redacts credentials here, so every line passes the same bounded destination.
   */
  transformLine?: (line: string) => string;
}

/** A change in dropping request-log lines: see LoggerOptions.onDrop. */
export interface LogDropEvent {
  state: 'dropping' | 'resumed';
  /** Lines dropped in this episode so far (0 when it starts). */
  lines: number;
  /** The buffer limit in force, bytes. */
  maxBufferBytes: number;
}

/**
 * Log lines a file-descriptor destination gathers before it writes (bytes), and the longest a line
 * waits when fewer arrive (ms): one write per ~4 KiB of lines under load instead of one per line
 * (pino's `minLength`/`periodicFlush`, sonic-boom), so the request log costs a loaded stub little.
 */
export const LOG_BATCH_BYTES = 4096;
export const LOG_FLUSH_MS = 100;
/**
 * Most bytes of log lines waiting for a destination that does not take them (a stdout pipe nobody
 * reads): past it, lines are dropped whole and counted instead of growing memory without bound.
 */
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Creates the stub's pino logger (one line per record). `json` writes pino's NDJSON through an
 * asynchronous destination, in batches (LOG_BATCH_BYTES, at most LOG_FLUSH_MS late; call
 * `logger.flush()` after a line that must show at once, such as the ready line). `text` renders with pino-pretty synchronously
 * (`12:00:00.123 INFO: GET /markets 200 0.4 ms`), which costs far more a line than JSON: meant for a
 * terminal, where a person reads the lines. Call `logger.flush()` before exiting.
 */
export function createLogger(options: LoggerOptions): Logger {
  const streamWrite = lineWriter(options);
  const base = { base: undefined, timestamp: isoTimeOncePerMs(), ...(streamWrite ? { hooks: { streamWrite } } : {}) };
  const destination = options.destination ?? 1;
  if (options.format === 'json') {
    const logger: Logger = typeof destination === 'number'
      ? pino(base, boundedDestination(destination, options))
      : pino(base, destination);
    return logger satisfies StubLogger;
  }
  // pino-pretty (CommonJS) is loaded only for text logs.
  const pinoPretty = require('pino-pretty') as typeof PinoPretty;
  return pino(base, pinoPretty({
    sync: true,
    colorize: options.colorize ?? false,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,method,path,status,ms,behaviour,url,source,count,seed,clock',
    singleLine: true,
    destination,
  }));
}

/**
 * Stage line: what each serialised record passes before its destination. A `json` line has DEL, C1
 * controls, bidi and zero-width characters written as `\uXXXX` (escapeInvisiblesInJson: the same
 * values, RFC 8259 §7), so a request path or an upstream's text cannot reorder or hide what a
 * terminal or a CI log shows; then the caller's transformLine. `text` lines are pino-pretty's.
 */
function lineWriter(options: LoggerOptions): ((line: string) => string) | undefined {
  const { transformLine } = options;
  if (options.format !== 'json') return transformLine;
  return transformLine ? (line) => transformLine(escapeJsonLine(line)) : escapeJsonLine;
}

/** Outside printable ASCII (and the line's own LF): the only lines with anything to escape, looked for first. */
const BEYOND_PRINTABLE_ASCII = /[^\x20-\x7e\n]/;

/**
 * escapeInvisiblesInJson for a log line, skipped for a line of printable ASCII (nearly every request
 * line): its Unicode-property scan on every line cost a logged request more server CPU (bench/README.md).
 */
function escapeJsonLine(line: string): string {
  return BEYOND_PRINTABLE_ASCII.test(line) ? escapeInvisiblesInJson(line) : line;
}

/**
 * pino's `isoTime` (`,"time":"2026-01-01T00:00:00.000Z"`, ISO 8601 UTC) with the string made once per
 * millisecond instead of once per line: a loaded stub writes ~50 lines a millisecond, and
 * `Date#toISOString` was 1.2 % of its CPU (measured with `--cpu-prof` under wrk). Same text, same clock.
 */
function isoTimeOncePerMs(): () => string {
  let lastMs = Number.NaN;
  let last = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      last = `,"time":"${new Date(now).toISOString()}"`;
    }
    return last;
  };
}

/**
 * Stage destination: pino's asynchronous file-descriptor destination (sonic-boom) in batches, holding
 * at most `maxBufferBytes` (sonic-boom's `maxLength`: a line that would pass it is dropped whole and
 * emitted as 'drop'); each dropping episode is told to `onDrop` when it starts and when the
 * destination has caught up ('drain').
 * @throws RangeError when maxBufferBytes is not an integer of at least 2 × LOG_BATCH_BYTES.
 */
function boundedDestination(fd: number, options: LoggerOptions) {
  const maxBufferBytes = options.maxBufferBytes ?? LOG_BUFFER_MAX_BYTES;
  if (!Number.isSafeInteger(maxBufferBytes) || maxBufferBytes < 2 * LOG_BATCH_BYTES) {
    throw new RangeError(`createLogger: maxBufferBytes: expected an integer of at least ${2 * LOG_BATCH_BYTES}, found ${String(maxBufferBytes)}`);
  }
  // Buffer content mode: each line is encoded once as it arrives and the batch is joined once when
  // written. In its utf8 mode sonic-boom appends each line to a pending string and measures that
  // string with Buffer.byteLength on every line, which flattens it: a copy of the batch so far per
  // line, ~3.5 KB of garbage a request at 4 KiB batches (sampling heap profile under wrk).
  const stream = pino.destination({ fd, sync: false, contentMode: 'buffer', minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS, maxLength: maxBufferBytes });
  const onDrop = options.onDrop;
  let dropped = 0;
  // Bytes taken and not yet written: sonic-boom's flush calls back when its current write ends,
  // even with up to a batch still waiting, so `flush` below goes on until this is 0.
  let pending = 0;
  stream.on('write', (n: number) => (pending -= n));
  stream.on('drop', (line: Buffer) => {
    pending -= line.length;
    if (dropped === 0) onDrop?.({ state: 'dropping', lines: 0, maxBufferBytes });
    dropped += 1;
  });
  stream.on('drain', () => {
    if (dropped === 0) return;
    const lines = dropped;
    dropped = 0;
    onDrop?.({ state: 'resumed', lines, maxBufferBytes });
  });
  const flush = (done: (error?: Error) => void): void =>
    stream.flush((error) => (error || pending <= 0 ? done(error) : flush(done)));
  return {
    // pino writes each line as a string; the destination takes bytes (sonic-boom's types predate
    // its buffer mode, hence the cast).
    write(line: string): boolean {
      const bytes = Buffer.from(line, 'utf8');
      pending += bytes.length;
      return stream.write(bytes as unknown as string);
    },
    /** Calls `done` once every line taken so far is written (or dropped), or with the write error. */
    flush,
  };
}

/**
 * The stderr lines of a command whose log on stdout is dropping lines (LoggerOptions.onDrop): when it
 * starts, naming the log and what to do (`remedy`, one sentence), and when stdout is read again, with
 * how many lines were lost.
 */
export function logDropNotice(notice: { command: string; log: string; remedy: string }, stderr: (text: string) => void): (event: LogDropEvent) => void {
  const { command, log, remedy } = notice;
  return (event) => stderr(event.state === 'dropping'
    ? `market-stub ${command}: warning: the ${log} on stdout is not being read: ${event.maxBufferBytes / 1024 / 1024} MiB of lines wait, further lines are dropped until it is. ${remedy}\n`
    : `market-stub ${command}: stdout is being read again: ${event.lines} ${log} line(s) were dropped meanwhile.\n`);
}

/** Longest wait of flushWithin for a destination to take what it holds, ms. */
export const LOG_FLUSH_WAIT_MS = 2_000;

/**
 * Resolves once the logger's destination has written what it holds, or after `maxWaitMs` when it
 * cannot (a stdout nobody reads), so whatever follows on stdout comes after the log's last lines
 * and a stalled reader never holds the process. Never rejects.
 */
export function flushWithin(logger: Logger, maxWaitMs = LOG_FLUSH_WAIT_MS): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxWaitMs);
    timer.unref();
    logger.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

