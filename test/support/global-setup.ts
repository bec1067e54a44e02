import type { TestProject } from 'vitest/node';
import { startMarketStub, type MarketStub } from '../../src/index.js';

// The vitest globalSetup pattern from the README: one stub for the whole run, its URL handed to
// test files through provide/inject. Torn down after every file has run.
let stub: MarketStub | undefined;

export async function setup(project: TestProject): Promise<void> {
  stub = await startMarketStub({ seed: 11, count: 30, clock: '2026-01-01' });
  project.provide('marketStubUrl', stub.url);
}

export async function teardown(): Promise<void> {
  await stub?.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    marketStubUrl: string;
  }
}
