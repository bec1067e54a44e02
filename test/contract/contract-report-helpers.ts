// Helpers shared by the contract tests: run `market-stub check` as a real process and read its JSON report.
import type { ContractFinding } from '../../src/contract/checks/contract-finding.js';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import type { ContractCliIo } from '../../src/cli/cli-io.js';
import { runCliProcess, type CliResult } from '../support/cli-process.js';

/** Runs the CLI in-process (runCli with captured output), as the real bin would but without a process start. */
export async function runCliInProcess(args: readonly string[], io: Partial<ContractCliIo> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    isTTY: false,
    signal: new AbortController().signal,
    stdoutStream: new Writable({ write: (chunk: Buffer, _encoding, done) => { stdout += chunk.toString(); done(); } }),
    ...io,
  });
  return { code, signal: null, stdout, stderr };
}

/** A CLI run with its parsed JSON report. */
export interface CheckRun extends CliResult {
  report: ContractReport;
}

/**
 * Runs `<command> --base-url URL --format json ...args` and parses stdout as the report: in-process
 * through runCli by default, or as a real `node dist/cli.cjs` process with `process: true`.
 */
export async function runCheckJson(baseUrl: string, args: readonly string[] = [], options: { command?: string; process?: boolean } = {}): Promise<CheckRun> {
  const command = options.command ?? 'check';
  const argv = [command, '--base-url', baseUrl, '--format', 'json', ...args];
  const result = options.process ? await runCliProcess(argv) : await runCliInProcess(argv);
  let report: ContractReport;
  try {
    report = JSON.parse(result.stdout) as ContractReport;
  } catch {
    throw new Error(`${command} did not print a JSON report (exit ${result.code})\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
  return { ...result, report };
}

/** `severity code endpoint pointer` of every error and warning, sorted: the shape a deviation is asserted by. */
export function problemKeys(report: ContractReport): string[] {
  return report.findings.filter((f) => f.severity !== 'info').map(findingKey).sort();
}

/** `severity code endpoint pointer` of one finding. */
export function findingKey(f: Pick<ContractFinding, 'severity' | 'code' | 'endpoint' | 'pointer'>): string {
  return `${f.severity} ${f.code} ${f.endpoint} ${f.pointer}`;
}

/** The one finding with this code (and endpoint, when given); throws when there is none or several. */
export function findingOf(report: ContractReport, code: string, endpoint?: string): ContractFinding {
  const found = report.findings.filter((f) => f.code === code && (endpoint === undefined || f.endpoint === endpoint));
  if (found.length !== 1) throw new Error(`expected one ${code} finding${endpoint ? ` on ${endpoint}` : ''}, found ${found.length}: ${JSON.stringify(report.findings.map(findingKey))}`);
  return found[0] as ContractFinding;
}

/** The text of every file under `dir`, concatenated (to search a recorded set for what must not be there). */
export async function filesUnder(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { recursive: true })) {
    const file = path.join(dir, entry);
    if ((await stat(file)).isFile()) text += await readFile(file, 'utf8');
  }
  return text;
}
