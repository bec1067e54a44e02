import type { NextFunction, Request, Response } from 'express';
import { loadExpress } from './load-express.js';
import { createAdminRouter } from './admin/admin-router.js';
import { errorReply, routeNotFound } from '../runtime/error-reply.js';
import { createOpenApiResponder } from '../runtime/openapi-served.js';
import { jsonReply } from '../runtime/reply.js';
import { writeReply } from './write-reply.js';
import { createNodeHandler } from './node-handler.js';
import { ADMIN_PREFIX, createStubRuntime, type RuntimeOptions, type StubRuntime } from '../runtime/stub-runtime.js';
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
 * drive it in-process with supertest: `request(createApp({ catalog })).get('/markets')`.
 *
 * Routes: `GET /markets`, `GET /markets/{market_id}` and `GET /healthz` (through the runtime:
 * profile, behaviours, journal, CORS), `GET /openapi.json`, the admin API under `/__stub` unless
 * disabled; every other path → 404 JSON in the profile's error shape. ETags are off: bodies are
 * pre-serialised and hashing a 1,000-market list per request halves throughput (measured under wrk).
 * @throws MarketStubError OPTION_INVALID for a bad or unknown option, or a missing `catalog`
 *   (`createApp: profile.paging: expected one of none, offset, cursor, found "pages"`).
 */
export function createApp(options: AppOptions): StubRequestListener {
  const runtime = options !== null && typeof options === 'object' && 'runtime' in options ? options.runtime : createStubRuntime(checked(options), 'createApp');
  const shape = runtime.profile.errors;
  const app = loadExpress()();
  app.disable('x-powered-by');
  app.disable('etag');
  const handle = createNodeHandler(runtime);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!handle(req, res)) next();
  });
  if (runtime.admin) app.use(ADMIN_PREFIX, createAdminRouter(runtime));
  const openapi = createOpenApiResponder(runtime.profile);
  app.get('/openapi.json', (req: Request, res: Response) => writeReply(res, jsonReply(openapi(runtime.store.current(), req))));
  app.use((req: Request, res: Response) => writeReply(res, routeNotFound(shape, req.method, req.path)));
  // Express recognises a 4-argument function as the error handler; it never sends a stack.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const what = (error as { type?: unknown }).type === 'entity.parse.failed' ? 'The request body is not valid JSON' : (error as Error).message;
      writeReply(res, errorReply(shape, status, 'bad_request', `${what}.`));
      return;
    }
    runtime.reportError(error, `${req.method} ${req.path}`);
    writeReply(res, errorReply(shape, 500, 'internal_error', 'The stub failed to answer this request; see its log.'));
  });
  return app as StubRequestListener;
}

function checked(options: RuntimeOptions): RuntimeOptions {
  checkRuntimeOptions(options, 'createApp');
  return options;
}
