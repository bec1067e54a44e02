import type { NextFunction, Request, Response } from 'express';
import { loadExpress } from './load-express.js';
import { loadConsoleAssets } from './admin/console-assets.js';
import { errorReply } from '../runtime/error-reply.js';
import { writeReply } from './write-reply.js';
import { createNodeHandler } from './node-handler.js';
import { createStubCore } from '../runtime/stub-core.js';
import { createStubRuntime, type RuntimeOptions, type StubRuntime } from '../runtime/stub-runtime.js';
import { checkRuntimeOptions } from '../runtime/runtime-options.js';

/** Build the app from runtime options (at least a catalog), or around an existing runtime. */
export type AppOptions = RuntimeOptions | { runtime: StubRuntime };

/**
 * What createApp returns: a Node.js request listener `(req, res)`, as `http.createServer(listener)`,
 * supertest's `request(listener)` and an Express app's `use(listener)` take. It is the Express 5 app
 * itself, typed structurally so the published types need no @types package (no @types/express).
 */
export type StubRequestListener = (req: unknown, res: unknown) => void;

/**
 * Builds the Express 5 app for the stub; it never listens (src/server.ts does), so test suites can
 * drive it in-process with supertest: `request(createApp({ catalog })).get('/markets')`, or mount
 * it in their own Express app under a prefix: `app.use('/stub', createApp({ catalog }))` (the
 * OpenAPI document then names `/stub` in its server URL).
 *
 * Every route is the request core's, through the node:http adapter (the same answers as
 * startMarketStub's server): `GET /markets`, `GET /markets/{market_id}`, `GET /healthz`,
 * `GET /openapi.json`, CORS preflights, the admin API under `/__stub` unless disabled, and 404 JSON
 * in the profile's error shape for every other path. ETags are off: bodies are pre-serialised.
 * @throws MarketStubError OPTION_INVALID for a bad or unknown option, or a missing `catalog`
 *   (`createApp: profile.paging: expected one of none, offset, cursor, found "pages"`).
 */
export function createApp(options: AppOptions): StubRequestListener {
  const runtime = options !== null && typeof options === 'object' && 'runtime' in options ? options.runtime : createStubRuntime(checked(options), 'createApp');
  const app = loadExpress()();
  app.disable('x-powered-by');
  app.disable('etag');
  const handle = createNodeHandler(createStubCore(runtime, { consoleAssets: loadConsoleAssets }), { mounted: true });
  app.use((req: Request, res: Response) => handle(req, res));
  // Express recognises a 4-argument function as the error handler; it never sends a stack.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    runtime.reportError(error, `${req.method} ${req.path}`);
    if (res.headersSent) res.destroy();
    else writeReply(res, errorReply(runtime.profile.errors, 500, 'internal_error', 'The stub failed to answer this request; see its log.'));
  });
  return app as StubRequestListener;
}

function checked(options: RuntimeOptions): RuntimeOptions {
  checkRuntimeOptions(options, 'createApp');
  return options;
}
