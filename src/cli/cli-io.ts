/** What a command may touch of the outside world; tests pass fakes. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory, where `serve` looks for market-stub.config.json; the process's when absent. */
  cwd?: string;
  /** Columns of the terminal stdout is, when it is one: `--help` wraps to it (at most 110; 100 when absent). */
  columns?: number;
  /** Whether stdout is a terminal (colours, text logs). */
  isTTY: boolean;
  /** Whether stderr is a terminal (progress lines). */
  stderrIsTTY?: boolean;
  /** Aborted on SIGINT/SIGTERM: long-running commands (serve) stop gracefully and return. */
  signal: AbortSignal;
  /** stdout as a stream, for loggers. */
  stdoutStream: NodeJS.WritableStream;
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, failed: 1, couldNotRun: 2 } as const;

/**
 * The CLI's io plus what the contract commands also use. `stderrIsTTY` turns on the progress line;
 * absent means false (src/cli.ts can pass `Boolean(process.stderr.isTTY)`).
 */
export type ContractCliIo = CliIo & { stderrIsTTY?: boolean };
