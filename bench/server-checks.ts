import { createReadStream, statSync } from 'node:fs';
import { httpGet, keepAliveAgent } from './http-get.js';
import type { ServerProcess } from './server-process.js';
import { NODE, ROOT } from './bench-context.js';
import { spawnTracked } from './tracked-children.js';

/** Runs `node args…` to completion; resolves its stdout. @throws on a non-zero exit or after 60 s. */
export async function runNodeOnce(args: readonly string[]): Promise<string> {
  const child = spawnTracked(NODE, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`node ${args.join(' ')} failed (exit ${code}): ${stderr.trim()}`);
  return stdout;
}

/** Counts lines of a file and returns one request log line (the second line: the first is the ready line). */
export async function inspectLog(file: string): Promise<{ lines: number; bytes: number; sample: string | null }> {
  let lines = 0;
  let head = '';
  for await (const chunk of createReadStream(file)) {
    const buf = chunk as Buffer;
    if (head.length < 2_000) head += buf.toString('utf8', 0, Math.min(buf.length, 2_000));
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
  }
  return { lines, bytes: statSync(file).size, sample: head.split('\n')[1]?.trim() || null };
}

/** Checks that every server answers the list and the sampled ids with the same bytes as the baseline. */
export async function checkSameMarkets(servers: readonly ServerProcess[], every: number): Promise<{ ids: string[]; requests: number }> {
  const agents = servers.map(() => keepAliveAgent());
  try {
    const lists = await Promise.all(servers.map((s, i) => httpGet(`${s.url}/markets`, { timeoutMs: 10_000, agent: agents[i] as ReturnType<typeof keepAliveAgent> })));
    const [reference, ...others] = lists;
    const ref = servers[0];
    if (!reference || !ref) throw new Error('no servers to check');
    lists.forEach((l, i) => {
      if (l.status !== 200) throw new Error(`${servers[i]?.name} answered GET /markets with ${l.status}: ${l.body.toString('utf8', 0, 300)}`);
    });
    others.forEach((l, i) => {
      if (!l.body.equals(reference.body)) throw new Error(`${servers[i + 1]?.name} and ${ref.name} answer GET /markets differently (${l.body.length} vs ${reference.body.length} bytes): they do not serve the same markets, so their figures cannot be compared.`);
    });
    const ids = (JSON.parse(reference.body.toString('utf8')) as { market_id: string }[]).map((m) => m.market_id);
    let requests = servers.length;
    for (let k = 0; k < ids.length; k += every) {
      const p = `/markets/${encodeURIComponent(ids[k] as string)}`;
      const bodies = await Promise.all(servers.map((s, i) => httpGet(`${s.url}${p}`, { timeoutMs: 10_000, agent: agents[i] as ReturnType<typeof keepAliveAgent> })));
      requests += servers.length;
      bodies.forEach((b, i) => {
        if (b.status !== 200 || !b.body.equals(bodies[0]?.body ?? Buffer.alloc(0))) {
          throw new Error(`${servers[i]?.name} answers GET ${p} with ${b.status} and ${b.body.length} bytes, ${ref.name} with ${bodies[0]?.status} and ${bodies[0]?.body.length} bytes: they do not serve the same market.`);
        }
      });
    }
    return { ids, requests };
  } finally {
    for (const a of agents) a.destroy();
  }
}
