import { spawn } from 'node:child_process';

/** How one engine command ended. `code` is -1 when it was killed for running past its time limit. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall-clock duration, in milliseconds. */
  ms: number;
}

/** The container engine the container test drives: podman (preferred) or docker. */
export interface ContainerEngine {
  readonly name: 'podman' | 'docker';
  /** Runs `<engine> ...args` to completion; never rejects for a non-zero exit. */
  run(args: readonly string[], options?: { timeoutMs?: number }): Promise<CommandResult>;
  /**
   * Runs the container's HEALTHCHECK once and resolves true when it passes. podman: `podman
   * healthcheck run` (without systemd nothing runs it on a timer); docker: the image's health
   * command through `docker exec`, the same command the daemon runs on its interval.
   */
  checkHealth(container: string): Promise<boolean>;
}

/** Runs `command ...args`, collecting its output; kills it (SIGKILL) after `timeoutMs`. */
export function runCommand(command: string, args: readonly string[], timeoutMs = 120_000): Promise<CommandResult> {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const finish = (code: number, extra = '') => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr: stderr + extra, ms: performance.now() - start });
    };
    child.on('error', (error) => finish(-1, `\n${command}: ${error.message}`));
    child.on('close', (code) => finish(timedOut ? -1 : (code ?? -1), timedOut ? `\n${command} ${args.join(' ')}: killed after ${timeoutMs} ms` : ''));
  });
}

/**
 * Picks the engine: `CONTAINER_ENGINE` (podman|docker) when set, else podman when `podman info`
 * works, else docker when `docker info` reaches a daemon.
 * @throws Error saying how to get a working engine when none answers.
 */
export async function createContainerEngine(env: Readonly<Record<string, string | undefined>> = process.env): Promise<ContainerEngine> {
  const wanted = env['CONTAINER_ENGINE'];
  const candidates: readonly ('podman' | 'docker')[] = wanted === 'podman' || wanted === 'docker' ? [wanted] : ['podman', 'docker'];
  const tried: string[] = [];
  for (const name of candidates) {
    const info = await runCommand(name, ['info'], 30_000);
    if (info.code === 0) return engine(name);
    tried.push(`${name} info: exit ${info.code}: ${lastLine(info.stderr)}`);
  }
  throw new Error(
    `No working container engine (${tried.join('; ')}). On these machines run ` +
      "'source ../shared/container/env.sh && ../shared/container/ensure-base.sh' first, or use .ci/container-test.sh.",
  );
}

function engine(name: 'podman' | 'docker'): ContainerEngine {
  const run = (args: readonly string[], options: { timeoutMs?: number } = {}) => runCommand(name, args, options.timeoutMs);
  return {
    name,
    run,
    async checkHealth(container) {
      if (name === 'podman') return (await run(['healthcheck', 'run', container], { timeoutMs: 10_000 })).code === 0;
      const spec = await run(['inspect', '--format', '{{json .Config.Healthcheck.Test}}', container]);
      const test = JSON.parse(spec.stdout || 'null') as string[] | null;
      if (spec.code !== 0 || !test || test[0] !== 'CMD') return false;
      return (await run(['exec', container, ...test.slice(1)], { timeoutMs: 10_000 })).code === 0;
    },
  };
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
