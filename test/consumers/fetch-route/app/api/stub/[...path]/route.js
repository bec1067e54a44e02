// A Fetch-API framework route (the shape of Next.js's App Router route handlers: one exported
// function per method, each taking a web Request and returning a Response) that serves market-stub
// under /api/stub: app/api/stub/[...path]/route.js answers /api/stub/markets, /api/stub/healthz…
import { createFetchHandler } from 'market-stub/fetch';

/** The stub of this route, its controls included (setBehaviour, requests…). */
export const stub = createFetchHandler({ seed: 7, count: 5, clock: '2026-01-01', basePath: '/api/stub' });

// One export per method, as the framework looks them up; each hands the Request to the stub.
export const GET = (request) => stub.fetch(request);
export const HEAD = (request) => stub.fetch(request);
export const OPTIONS = (request) => stub.fetch(request);
export const POST = (request) => stub.fetch(request);
