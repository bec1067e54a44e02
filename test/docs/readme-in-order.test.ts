// The README followed top to bottom in one session, as a newcomer does: a stub started in the
// foreground keeps running (its section says to type on in another terminal), so every server a
// later section starts needs a port no earlier one holds, and every local URL a line reaches must
// be a stub started above it. examples.test.ts runs each block on its own (free ports); this test
// is what it cannot see: the blocks in order, on the ports they document.
import { describe, expect, it } from 'vitest';
import { blocksOf } from './support/doc-blocks.js';
import { shellLines } from './support/run-shell-example.js';

/** The port a line's server takes: `--port N` (0: a free one, never a collision), else the command's default; undefined when the line starts none. */
function serverPort(line: string): number | undefined {
  const command = line.replace(/\s#\s.*$/, '');
  if (/\bnpm (?:start|run start)\b/.test(command) && !/--port/.test(command)) return 4010;
  const kind = /\bmarket-stub\s+(serve|proxy)\b(?!.*--(?:help|print-config))/.exec(command)?.[1];
  if (kind === undefined) return undefined;
  const given = /--port\s+(\d+)/.exec(command)?.[1];
  return given === undefined ? (kind === 'serve' ? 4010 : 4011) : Number(given);
}

/** The local ports a line reaches (`http://127.0.0.1:N`, `http://localhost:N`). */
function reachedPorts(line: string): number[] {
  return [...line.replace(/\s#\s.*$/, '').matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost):(\d+)/g)].map((m) => Number(m[1]));
}

/** Walks the README's shell blocks in order (runnable or not: a reader types both); the problems found. */
function sessionProblems(readme = 'README.md', text?: string): string[] {
  const held = new Map<number, string>();
  const problems: string[] = [];
  for (const block of blocksOf(readme, text).filter((b) => b.lang === 'sh' || b.lang === 'bash')) {
    for (const line of shellLines(block.body)) {
      for (const port of reachedPorts(line)) {
        if (!held.has(port)) problems.push(`${readme}:${block.line}: \`${line}\` reaches port ${port}, which no stub started above holds`);
      }
      const port = serverPort(line);
      if (port === undefined || port === 0) continue;
      const holder = held.get(port);
      if (holder !== undefined) problems.push(`${readme}:${block.line}: \`${line}\` starts a server on port ${port}, still held by \`${holder}\` (EADDRINUSE)`);
      else held.set(port, line);
    }
  }
  return problems;
}

describe('the README in one session, top to bottom', () => {
  it('starts every server on a port no earlier section holds, and reaches only stubs started above', () => {
    expect(sessionProblems()).toEqual([]);
  });

  it('would catch the collision 0.1 had: `serve` on 4010 after `npm start`, and a curl that reached the other stub', () => {
    const old = [
      '## Quick start', '', '```sh', 'npm ci && npm start          # serves on http://127.0.0.1:4010', '```', '',
      '```sh', 'curl http://127.0.0.1:4010/markets', '```', '',
      '## Running the CLI', '', '```sh', 'npx market-stub serve --seed 7 --count 25    # serves until Ctrl-C', 'curl http://127.0.0.1:4010/markets/HVVQ-42JAN23-1', '```', '',
    ].join('\n');
    const problems = sessionProblems('README.md', old);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('starts a server on port 4010, still held by `npm ci && npm start');
    expect(sessionProblems('README.md', old.replace('curl http://127.0.0.1:4010/markets\n', 'curl http://127.0.0.1:4099/markets\n'))[0]).toContain('reaches port 4099, which no stub started above holds');
  });
});
