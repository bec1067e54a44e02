import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { MarketCatalog } from '../catalog/market-catalog.js';
import { errorReply, routeNotFound } from './error-reply.js';
import { respondToMarkets } from './market-responder.js';
import { jsonReply, writeReply } from './reply.js';

/** What the app serves. */
export interface AppOptions {
  catalog: MarketCatalog;
}

const HEALTH_BODY = Buffer.from('{"status":"ok"}');

/**
 * Builds the Express 5 app for the stub; it never listens (src/server.ts does), so test suites can
 * drive it in-process with supertest.
 *
 * Routes: `GET /markets`, `GET /markets/{market_id}` (see respondToMarkets), `GET /healthz` → 200
 * `{"status":"ok"}`; every other path → 404 JSON. ETags are off: bodies are pre-serialised and
 * hashing a 1,000-market list per request halves throughput (FIELD-NOTES §3).
 */
export function createApp(options: AppOptions): Express {
  const { catalog } = options;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((req: Request, res: Response, next: NextFunction) => {
    const reply = respondToMarkets(catalog, { method: req.method, path: req.path });
    if (reply) writeReply(res, reply);
    else next();
  });
  app.get('/healthz', (_req: Request, res: Response) => writeReply(res, jsonReply(HEALTH_BODY)));
  app.use((req: Request, res: Response) => writeReply(res, routeNotFound(req.method, req.path)));
  // Express recognises a 4-argument function as the error handler.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      writeReply(res, errorReply(status, 'bad_request', (error as Error).message));
      return;
    }
    writeReply(res, errorReply(500, 'internal_error', 'The stub failed to answer this request; see its log.'));
  });
  return app;
}
