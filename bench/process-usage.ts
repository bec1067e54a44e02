// Memory and CPU of another process, read from Linux procfs (proc(5)); `ps` is the fallback for
// memory elsewhere. CPU time is Linux-only: the figures that need it are null on other systems.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Resident memory of a process in MB (2^20 bytes). */
export interface ProcessMemory {
  /** Resident set size now (VmRSS). */
  rssMb: number;
  /** Peak resident set size (VmHWM); null where procfs is unavailable. */
  peakRssMb: number | null;
}

let clockTicks: number | undefined;

function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100; // USER_HZ on every mainstream Linux build
    }
  }
  return clockTicks;
}

/**
 * The resident memory of process `pid`: /proc/PID/status VmRSS and VmHWM (kB), or `ps -o rss=`
 * where there is no procfs.
 * @throws Error when the process does not exist (it exited, e.g. out of memory).
 */
export function readProcessMemory(pid: number): ProcessMemory {
  let status: string | undefined;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    status = undefined;
  }
  if (status !== undefined) {
    const kb = (field: string): number | null => {
      const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status ?? '');
      return m ? Number(m[1]) : null;
    };
    const rss = kb('VmRSS');
    if (rss === null) throw new Error(`process ${pid} has no VmRSS in /proc/${pid}/status (it is a zombie: it has exited)`);
    const peak = kb('VmHWM');
    return { rssMb: rss / 1024, peakRssMb: peak === null ? null : peak / 1024 };
  }
  const out = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  if (!/^\d+$/.test(out)) throw new Error(`process ${pid} is not running (ps printed ${JSON.stringify(out)})`);
  return { rssMb: Number(out) / 1024, peakRssMb: null };
}

/**
 * CPU time (user + system, all threads) process `pid` has used so far, in seconds, from fields 14
 * and 15 of /proc/PID/stat (clock ticks, usually 10 ms); null where there is no procfs.
 */
export function readProcessCpuSeconds(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return (utime + stime) / ticksPerSecond();
}
