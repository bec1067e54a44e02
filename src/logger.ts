import { pino, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

/** How log lines are written: `text` for people, `json` (one pino object per line) for machines. */
export type LogFormat = 'text' | 'json';

export interface LoggerOptions {
  format: LogFormat;
  /** Where lines go; default process stdout's file descriptor 1. */
  destination?: NodeJS.WritableStream;
  /** Colour text lines (only for `text`). */
  colorize?: boolean;
}

/**
 * Creates the stub's pino logger. `text` renders through pino-pretty synchronously (one line per
 * record: `12:00:00.123 INFO: GET /markets 200 0.4 ms`); `json` writes pino's NDJSON as is.
 */
export function createLogger(options: LoggerOptions): Logger {
  const base = { base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  if (options.format === 'json') {
    return options.destination ? pino(base, options.destination) : pino(base, pino.destination({ fd: 1, sync: false }));
  }
  const pretty = pinoPretty({
    sync: true,
    colorize: options.colorize ?? false,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,method,path,status,ms,req_id',
    singleLine: true,
    ...(options.destination ? { destination: options.destination } : {}),
  });
  return pino(base, pretty);
}

/** A logger that drops everything (library use and `--quiet` request logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
