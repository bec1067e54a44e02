// bench/pad-answer-headers.cjs: the control bench:time preloads into the build it compares with, so
// both builds' list answers are as long on the wire. Through a real node:http server in a child.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PRELOAD = path.resolve(import.meta.dirname, '../../bench/pad-answer-headers.cjs');
// A server answering with writeHead(status, object), as market-stub 0.4 does; it prints its port.
const SERVER = `require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }); res.end('ok'); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;

/** Starts the server with the preload and BENCH_PAD_BYTES; resolves its port, or its exit code and stderr when it fails. */
function start(padBytes: string): Promise<{ port: number; stop: () => void } | { code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--require', PRELOAD, '-e', SERVER], { env: { ...process.env, BENCH_PAD_BYTES: padBytes }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    child.stdout.once('data', (d: Buffer) => resolve({ port: Number(d.toString().trim()), stop: () => child.kill() }));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('bench/pad-answer-headers.cjs', () => {
  it('adds X-Bench-Pad of BENCH_PAD_BYTES value bytes to every answer, and nothing else changes', async () => {
    const server = await start('82');
    if (!('port' in server)) throw new Error(`server failed: ${server.stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/`);
      expect(res.headers.get('x-bench-pad')).toBe('x'.repeat(82));
      expect(res.headers.get('content-type')).toBe('text/plain');
      expect(await res.text()).toBe('ok');
    } finally {
      server.stop();
    }
  });

  it.each(['-1', 'abc', '8193', '1.5'])('refuses BENCH_PAD_BYTES=%s before anything is served', async (value) => {
    const result = await start(value);
    if ('port' in result) {
      result.stop();
      throw new Error(`BENCH_PAD_BYTES=${value} was taken: a server listened on ${result.port}`);
    }
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('BENCH_PAD_BYTES: expected an integer from 0 to 8192');
  });
});
