import { spawn } from 'node:child_process';
import { Agent, get } from 'node:http';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/cli-process.js';
import { LOG_BUFFER_MAX_BYTES } from '../../src/logger.js';

/** GET url on a keep-alive agent; resolves with the status once the body is read. */
function fetchStatus(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

describe('serve: a request log on a stdout nobody reads', () => {
  it('drops whole lines past LOG_BUFFER_MAX_BYTES, says so on stderr, and accounts for every line once stdout is read again', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--count', '10', '--log-format', 'json'], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      // Read up to the ready line, then stop reading: the pipe fills and the stub's log backs up.
      let head = '';
      while (!/listening on (http:\/\/\S+)/.test(head)) head += String((await once(child.stdout, 'data'))[0]);
      child.stdout.pause();
      const url = /listening on (http:\/\/[^\s"]+)/.exec(head)?.[1] ?? '';
      // Lines of about 2 × 8 KiB (the path is in the record and in its message): 4,000 of them are
      // about 64 MiB, four times the buffer limit.
      const longId = 'X'.repeat(8 * 1024);
      const requests = 4_000;
      const agent = new Agent({ keepAlive: true, maxSockets: 20 });
      const statuses: number[] = [];
      for (let i = 0; i < requests; i += 100) {
        statuses.push(...await Promise.all(Array.from({ length: 100 }, (_, j) => fetchStatus(`${url}/markets/${longId}-${i + j}`, agent))));
      }
      agent.destroy();
      expect(statuses.every((s) => s === 404)).toBe(true);
      // The stub kept answering while it dropped lines, and said what it did and how to fix it.
      expect(await fetchStatus(`${url}/healthz`, new Agent())).toBe(200);
      expect(stderr).toContain(`the request log on stdout is not being read: ${LOG_BUFFER_MAX_BYTES / 1024 / 1024} MiB of lines wait`);
      expect(stderr).toContain('--quiet');

      // Read again: the buffered lines arrive whole, and the stub counts the ones it dropped.
      let stdout = head;
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stdout.resume();
      const deadline = Date.now() + 20_000;
      while (!/stdout is being read again: (\d+) request log line/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const dropped = Number(/stdout is being read again: (\d+) request log line/.exec(stderr)?.[1]);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit') as [number | null];
      expect(code).toBe(0);

      const lines = stdout.split('\n').filter((line) => line !== '');
      // Every line written is whole JSON: dropping never cuts one.
      for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
      const delivered = lines.filter((line) => line.includes(`/markets/${longId}-`)).length;
      expect(dropped).toBeGreaterThan(0);
      expect(delivered).toBeGreaterThan(0);
      expect(delivered + dropped).toBe(requests);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
