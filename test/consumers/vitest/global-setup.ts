import type { TestProject } from 'vitest/node';
import { startMarketStub, type MarketStub } from 'market-stub';

// One stub for the whole run, started before any test file and closed after the last one. Test
// files run in other workers: they get its URL through inject() and control it over HTTP.
let stub: MarketStub | undefined;

export async function setup(project: TestProject): Promise<void> {
  stub = await startMarketStub({ seed: 7, count: 5, clock: '2026-01-01' });
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
