import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

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
}

/**
 * Log lines a file-descriptor destination gathers before it writes (bytes), and the longest a line
 * waits when fewer arrive (ms): one write per ~4 KiB of lines under load instead of one per line
 * (pino's `minLength`/`periodicFlush`, sonic-boom), so the request log costs a loaded stub little.
 */
export const LOG_BATCH_BYTES = 4096;
export const LOG_FLUSH_MS = 100;

/**
 * Creates the stub's pino logger (one line per record). `json` writes pino's NDJSON through an
 * asynchronous destination, in batches (LOG_BATCH_BYTES, at most LOG_FLUSH_MS late; call
 * `logger.flush()` after a line that must show at once, such as the ready line). `text` renders with pino-pretty synchronously
 * (`12:00:00.123 INFO: GET /markets 200 0.4 ms`), which costs about 15 µs a line: meant for a
 * terminal, where a person reads the lines. Call `logger.flush()` before exiting.
 */
export function createLogger(options: LoggerOptions): Logger {
  const base = { base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  const destination = options.destination ?? 1;
  if (options.format === 'json') {
    return typeof destination === 'number'
      ? pino(base, pino.destination({ fd: destination, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS }))
      : pino(base, destination);
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

/** A logger that drops everything (library use and `--quiet` request logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
