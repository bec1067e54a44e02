// Types of scripts/runtime-exchange.mjs for the TypeScript that imports it (bench/fetch-runtimes.ts).
export interface ServerProcess {
  pid: number;
  output(): string;
  exited(): boolean;
  stop(): Promise<void>;
}
export declare function freePort(): Promise<number>;
export declare function startProcess(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): ServerProcess;
export declare function waitForReady(url: string, server: ServerProcess, limitMs: number): Promise<string | null>;
export declare function exchange(url: string, options?: { method?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: [string, string][]; body: Buffer }>;
export declare function compareExchanges(referenceUrl: string, url: string): Promise<string[]>;
export declare const RUNTIME_PACKAGES: { bun: string; deno: string; workerd: string };
export declare function bundleServer(source: string, entry: string, outDir: string): Promise<string>;
