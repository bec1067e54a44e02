import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, flushWithin, LOG_BATCH_BYTES, type LogDropEvent } from './logger.js';

/** Reads what a non-blocking descriptor holds now, as text. */
function drain(fd: number): string {
  const chunk = Buffer.alloc(64 * 1024);
  let text = '';
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return text;
      throw error;
    }
    if (n === 0) return text;
    text += chunk.toString('utf8', 0, n);
  }
}

describe('createLogger: a json destination on a descriptor nobody reads', () => {
  // A FIFO stands for a stdout pipe whose reader has stopped (POSIX only).
  it.skipIf(process.platform === 'win32')('holds at most maxBufferBytes, drops whole lines, reports both episodes, and every line passes transformLine', async () => {
    const fifo = path.join(mkdtempSync(path.join(tmpdir(), 'market-stub-log-')), 'stdout');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    const events: LogDropEvent[] = [];
    const logger = createLogger({
      format: 'json', destination: writer, maxBufferBytes: 16 * LOG_BATCH_BYTES,
      transformLine: (line) => line.replaceAll('s3cret', '[redacted]'),
      onDrop: (event) => events.push(event),
    });
    try {
      const lines = 5_000;
      for (let i = 0; i < lines; i++) logger.info({ i, token: 's3cret' }, `line ${i} ${'x'.repeat(200)}`);
      expect(events).toEqual([{ state: 'dropping', lines: 0, maxBufferBytes: 16 * LOG_BATCH_BYTES }]);

      // Read until the destination has caught up and says how many lines it dropped.
      let text = '';
      const deadline = Date.now() + 10_000;
      while (events.length < 2 && Date.now() < deadline) {
        text += drain(reader);
        await new Promise((r) => setTimeout(r, 20));
      }
      await flushWithin(logger);
      text += drain(reader);

      expect(events[1]?.state).toBe('resumed');
      const dropped = events[1]?.lines ?? 0;
      const written = text.split('\n').filter((line) => line !== '');
      for (const line of written) {
        const record = JSON.parse(line) as { token: string };
        expect(record.token).toBe('[redacted]');
      }
      expect(text).not.toContain('s3cret');
      expect(dropped).toBeGreaterThan(0);
      expect(written.length + dropped).toBe(lines);
    } finally {
      closeSync(reader);
    }
  });

  it('refuses a buffer limit below two batches', () => {
    expect(() => createLogger({ format: 'json', destination: 1, maxBufferBytes: LOG_BATCH_BYTES })).toThrow(RangeError);
  });
});

describe('createLogger: json lines', () => {
  it('reach a file descriptor whole and in order, multi-byte text included, across many batches', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'market-stub-log-')), 'log.ndjson');
    const fd = openSync(file, 'w');
    const logger = createLogger({ format: 'json', destination: fd });
    // Lines of 1- to 4-byte UTF-8 characters, of lengths that straddle every batch boundary.
    const texts = ['ascii', 'é', '€', '🙂', '中文', 'a\u0000b', '"quoted"\n'];
    const messages = Array.from({ length: 3_000 }, (_, i) => `${texts[i % texts.length]} ${'ü🙂'.repeat(i % 97)} #${i}`);
    for (const [i, msg] of messages.entries()) logger.info({ i, path: `/markets/${texts[i % texts.length]}` }, msg);
    // Resolves only once the last line is written (sonic-boom alone would call back with up to a batch
    // still held). The descriptor stays open: the destination's periodic flush still uses it.
    await flushWithin(logger);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(messages);
    expect(lines.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(messages.map((_, i) => i));
  });

  it('carry the time as ISO 8601 UTC with milliseconds, from the clock at each line, never going back', async () => {
    const { PassThrough } = await import('node:stream');
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const logger = createLogger({ format: 'json', destination: sink });
    const before = Date.now();
    for (let i = 0; i < 2_000; i++) logger.info({ i }, `line ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    logger.info({ i: 2_000 }, 'line after a pause');
    const after = Date.now();
    await new Promise((resolve) => setImmediate(resolve));
    const times = text.trim().split('\n').map((line) => (JSON.parse(line) as { time: string }).time);
    expect(times).toHaveLength(2_001);
    for (const time of times) expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const ms = times.map((t) => Date.parse(t));
    expect(Math.min(...ms)).toBeGreaterThanOrEqual(before);
    expect(Math.max(...ms)).toBeLessThanOrEqual(after);
    for (let i = 1; i < ms.length; i++) expect(ms[i]).toBeGreaterThanOrEqual(ms[i - 1] as number);
    // The line written after a 5 ms pause has a later time than the first line: the string is not kept past its millisecond.
    expect(ms[ms.length - 1]).toBeGreaterThan(ms[0] as number);
  });
});

describe('createLogger: json lines from hostile values', () => {
  it('writes DEL, C1, bidi and zero-width characters as \\uXXXX, the same values once parsed, and still passes transformLine', async () => {
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (d: Buffer) => (text += d.toString('utf8')));
    const logger = createLogger({ format: 'json', destination: sink, transformLine: (line) => line.replaceAll('s3cret', '[redacted]') });
    const hostile = '/markets/\u202eevil\u0085\u200b\u007f?key=s3cret';
    logger.info({ path: hostile }, 'GET \u2066x\u2069');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(text).toMatch(/\\u202e.*\\u0085.*\\u200b.*\\u007f/);
    expect(text).not.toMatch(/[\u007f-\u009f\u200b\u202a-\u202e\u2066-\u2069]/);
    const line = JSON.parse(text.trim()) as { path: string; msg: string };
    expect(line.path).toBe(hostile.replace('s3cret', '[redacted]'));
    expect(line.msg).toBe('GET \u2066x\u2069');
  });
});
