// The machine a run happened on: results are only comparable within one run on one machine.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface MachineInfo {
  /** os.cpus() model of the first core, e.g. `AMD EPYC 7B13`. */
  cpuModel: string;
  cpuCount: number;
  totalMemoryGb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run began: other work on the machine skews every figure. */
  loadAverage1m: number;
  /** `git rev-parse --short HEAD`, with `+changes` when the work tree differs; null outside git. */
  commit: string | null;
}

/** Describes this machine and the code under test (git is only read, never changed). */
export function describeMachine(root: string): MachineInfo {
  const cpus = os.cpus();
  let commit: string | null;
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'package.json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    commit = dirty ? `${head}+changes` : head;
  } catch {
    commit = null;
  }
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryGb: os.totalmem() / 2 ** 30,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage1m: os.loadavg()[0] ?? 0,
    commit,
  };
}
