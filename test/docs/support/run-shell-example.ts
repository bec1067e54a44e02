// Runs a shell example of the documentation line by line, as a reader would type it:
//   - `market-stub …` and `npx market-stub …` become `node dist/cli.cjs …`;
//   - `serve` and `proxy` lines start a server (on a free port) and wait for its ready line; the
//     block's later lines reach it where they say http://127.0.0.1:PORT; it stops at the block's end;
//   - other lines reach the stub the test started (what `npm start` serves) unless a line above
//     started one; https://….example.com/v1 (the documented deployments) is that stub too;
//   - `curl` must answer 2xx, or the status its comment names (`# answers 503`); any other command
//     must exit 0, or the code its comment names (`# exit 1`);
//   - `export NAME=value` lines hold for the lines after them.
// A `console` block holds `$ command` lines each followed by its exact output (stdout then stderr).
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, exampleEnv, run, type Ran } from './example-sandbox.js';

/** The deployments examples name (https://staging.example.com/v1, https://api.example.com/v1): the stub here. */
const DEPLOYMENT = /https:\/\/[\w.-]*example\.com(?:\/v1)?/g;
/** The commands an example line may run here; anything else (npm, docker…) needs a not-runnable marker. */
const ALLOWED = /^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:npx\s+market-stub|npx\s+openapi-typescript|market-stub|curl|mkdir|cp|ls|cat|echo|test)(?:\s|$)/;

/** The logical lines of a shell block: continuations joined, blank and comment-only lines dropped. */
export function shellLines(body: string): string[] {
  return body.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}

/** The line without its trailing comment, and the comment. */
function splitComment(line: string): { command: string; comment: string } {
  const at = line.search(/\s#\s/);
  return at < 0 ? { command: line, comment: '' } : { command: line.slice(0, at).trim(), comment: line.slice(at).trim() };
}

/** `market-stub …` as the built CLI, after any leading NAME=value assignments. */
export function asBuiltCli(command: string): string {
  return command.replace(/^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)(?:npx\s+)?market-stub(?=\s|$)/, `$1node ${CLI}`);
}

interface Servers { urls: Map<string, string>; children: ChildProcess[] }

function substituteUrls(command: string, servers: Servers): string {
  let out = command.replace(DEPLOYMENT, servers.urls.get('4010') as string);
  for (const [port, url] of servers.urls) out = out.replace(new RegExp(`https?://(?:127\\.0\\.0\\.1|localhost):${port}(?!\\d)`, 'g'), url);
  return out;
}

/** Starts a `serve`/`proxy` line on a free port; resolves with its URL once it prints its ready line. */
function startServer(command: string, kind: 'serve' | 'proxy', cwd: string, env: NodeJS.ProcessEnv, servers: Servers): Promise<void> {
  const documented = /--port\s+(\d+)/.exec(command)?.[1] ?? (kind === 'serve' ? '4010' : '4011');
  const line = command.replace(/--port\s+\d+/, '--port 0').replace(/^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)/, '$1exec ');
  const child = spawn('bash', ['-c', line], { cwd, env: { ...env, MARKET_STUB_PORT: '0', MARKET_STUB_PROXY_PORT: '0', MARKET_STUB_LOG_FORMAT: 'json' }, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${command}: no ready line within 20 s\n${out}${err}`)), 20_000);
    child.stderr.on('data', (b: Buffer) => { err += b.toString(); });
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const url = /listening on (http:\/\/[^\s"]+)/.exec(out)?.[1];
      if (url) { clearTimeout(timer); servers.urls.set(documented, url); resolve(); }
    });
    child.on('close', (code) => { clearTimeout(timer); reject(new Error(`${command}: exited ${code} before its ready line\n${out}${err}`)); });
  });
}

/** The failure of one ordinary line, or undefined when it did what the example says. */
function judge(command: string, comment: string, ran: Ran, isCurl: boolean): string | undefined {
  const output = `${ran.stdout}${ran.stderr}`.slice(0, 2000);
  if (isCurl) {
    const want = /answers (\d{3})/.exec(comment)?.[1];
    const status = ran.stdout.trim();
    const ok = want ? status === want : /^2\d\d$/.test(status);
    return ok ? undefined : `${command}: answered ${status || ran.stderr.trim()}, expected ${want ?? 'a 2xx status'}`;
  }
  const want = Number(/exit (\d)/.exec(comment)?.[1] ?? 0);
  return ran.code === want ? undefined : `${command}: exit ${ran.code}, expected ${want}\n${output}`;
}

/**
 * Runs every line of a `sh` block; resolves with the problems found (empty when the block works).
 * @param stubUrl the stub the test started, where the block reaches http://127.0.0.1:4010 unless it starts its own.
 */
export async function runShellBlock(body: string, cwd: string, stubUrl: string): Promise<string[]> {
  const servers: Servers = { urls: new Map([['4010', stubUrl]]), children: [] };
  const exported: Record<string, string> = {};
  const problems: string[] = [];
  try {
    for (const raw of shellLines(body)) {
      const { command: typed, comment } = splitComment(raw);
      const exportMatch = /^export\s+([A-Z_][A-Z0-9_]*)=(.*)$/.exec(typed);
      if (exportMatch) { exported[exportMatch[1] as string] = (exportMatch[2] as string).replace(/^"(.*)"$/, '$1'); continue; }
      if (!ALLOWED.test(typed)) { problems.push(`${typed}: not a command the examples test runs; mark the block <!-- not-runnable: REASON -->`); continue; }
      const command = asBuiltCli(substituteUrls(typed, servers));
      const env = exampleEnv(exported);
      const server = /dist\/cli\.cjs (serve|proxy)\b(?!.*--(help|print-config))/.exec(command)?.[1] as 'serve' | 'proxy' | undefined;
      if (server) { await startServer(command, server, cwd, env, servers); continue; }
      const isCurl = command.startsWith('curl ');
      const line = isCurl ? command.replace(/^curl /, "curl -sS -o /dev/null -w '%{http_code}' ") : command;
      const problem = judge(typed, comment, await run('bash', ['-c', line], cwd, env), isCurl);
      if (problem) problems.push(problem);
    }
  } catch (error) {
    problems.push((error as Error).message);
  } finally {
    await Promise.all(servers.children.map((child) => stop(child)));
  }
  return problems;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('close', () => { clearTimeout(timer); resolve(); });
    child.kill('SIGTERM');
  });
}

/**
 * Runs every `$ command` of a `console` block and compares its output with the lines under it.
 * Resolves with the problems found.
 */
export async function runConsoleBlock(body: string, cwd: string, stubUrl: string): Promise<string[]> {
  const servers: Servers = { urls: new Map([['4010', stubUrl]]), children: [] };
  const problems: string[] = [];
  const steps = body.split(/^\$ /m).slice(1);
  for (const step of steps) {
    const [typed = '', ...expected] = step.split('\n');
    if (!ALLOWED.test(typed)) { problems.push(`${typed}: not a command the examples test runs`); continue; }
    const ran = await run('bash', ['-c', asBuiltCli(substituteUrls(typed, servers))], cwd, exampleEnv());
    const got = `${ran.stdout}${ran.stderr}`.trimEnd();
    const want = expected.join('\n').trimEnd();
    if (got !== want) problems.push(`$ ${typed}\n--- documented\n${want}\n--- printed\n${got}`);
  }
  return problems;
}
