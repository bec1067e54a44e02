// Types of scripts/node-runtimes.mjs for the TypeScript that imports it (bench/fetch-runtimes.ts).
export declare const RUNTIMES_DIR: string;
export declare const DEFAULT_MAJORS: number[];
export declare function ensurePackages(name: string, specs: string[]): string;
export declare function ensureNodeRuntime(major: number): { major: number; version: string; binDir: string; node: string };
