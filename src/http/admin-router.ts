import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response, Router } from 'express';
import { loadExpress } from './load-express.js';
import { DOMAIN_FAULTS, type DomainFault } from '../catalog/market-store.js';
import { FixtureError } from '../catalog/load-fixtures.js';
import { BehaviourError, type BehaviourRuleInput } from '../behaviour/behaviour.js';
import type { JournalFilter } from '../journal/request-journal.js';
import { errorReply } from './error-reply.js';
import { jsonReply, writeReply } from './reply.js';
import type { StubRuntime } from './stub-runtime.js';

/**
 * The admin API, mounted under `/__stub` (WireMock's `/__admin` idea). Catalog: `GET|PUT|POST
 * /markets`, `PUT|PATCH|DELETE /markets/{id}`, `PUT /markets/{id}/faults`, `POST /reset`, `POST
 * /tick`. Behaviours: `GET|DELETE /behaviours`, `PUT /behaviours/global`, `POST /behaviours/rules`,
 * `DELETE /behaviours/rules/{id}`. Journal: `GET|DELETE /requests`, `GET /requests/count`.
 * With a token, every call needs `Authorization: Bearer <token>` (RFC 6750 §2.1), else 401.
 * Invalid markets → 400 with `findings` (pointer, expected, found), like fixtures at start-up.
 */
export function createAdminRouter(runtime: StubRuntime): Router {
  const express = loadExpress();
  const router = express.Router();
  const shape = runtime.profile.errors;
  const send = (res: Response, status: number, value: unknown) => writeReply(res, jsonReply(Buffer.from(JSON.stringify(value)), status));
  const fail = (res: Response, status: number, message: string, details: Record<string, unknown> = {}) =>
    writeReply(res, errorReply(shape, status, status === 404 ? 'market_not_found' : status === 409 ? 'conflict' : 'bad_request', message, details));

  if (runtime.adminToken !== undefined) {
    const expected = Buffer.from(`Bearer ${runtime.adminToken}`);
    router.use((req: Request, res: Response, next: NextFunction) => {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
      writeReply(res, errorReply(shape, 401, 'unauthorized', 'The admin API needs Authorization: Bearer <token> (the --admin-token value).', {}, { 'www-authenticate': 'Bearer realm="market-stub admin"' }));
    });
  }
  router.use(express.json({ limit: '200mb', strict: false }));

  const markets = () => {
    const catalog = runtime.store.current();
    return Array.from({ length: catalog.size }, (_, i) => catalog.entryAt(i)?.market);
  };
  const guard = (fn: (req: Request, res: Response) => void) => (req: Request, res: Response) => {
    try {
      fn(req, res);
    } catch (error) {
      if (error instanceof FixtureError) return fail(res, 400, `The markets are invalid (${error.problems.length} problem(s)); nothing was changed.`, { findings: error.problems.map(({ pointer, expected, found, message }) => ({ pointer, expected, found, message })) });
      if (error instanceof BehaviourError || error instanceof RangeError) return fail(res, 400, `${error.message}; nothing was changed.`);
      throw error;
    }
  };
  const idParam = (req: Request): string => String(req.params['id']);

  router.get('/markets', (_req, res) => send(res, 200, markets()));
  router.put('/markets', guard((req, res) => {
    if (!Array.isArray(req.body)) return fail(res, 400, 'PUT /__stub/markets takes a JSON array of markets.');
    runtime.store.replace(req.body as unknown[]);
    send(res, 200, { count: runtime.store.current().size });
  }));
  router.post('/markets', guard((req, res) => {
    const id = (req.body as { market_id?: unknown } | undefined)?.market_id;
    if (typeof id === 'string' && runtime.store.current().entry(id)) return fail(res, 409, `A market with market_id ${JSON.stringify(id)} exists; PUT /__stub/markets/{id} replaces it.`, { market_id: id });
    runtime.store.put(req.body);
    send(res, 201, req.body);
  }));
  router.put('/markets/:id', guard((req, res) => {
    const body = req.body as { market_id?: unknown } | undefined;
    if (body?.market_id !== idParam(req)) return fail(res, 400, `The body's market_id must equal the path's (${JSON.stringify(idParam(req))}).`);
    const outcome = runtime.store.put(req.body);
    send(res, outcome === 'created' ? 201 : 200, req.body);
  }));
  router.patch('/markets/:id', guard((req, res) => {
    if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) return fail(res, 400, 'PATCH takes a JSON object (RFC 7396 merge patch).');
    const market = runtime.store.patch(idParam(req), req.body as Record<string, unknown>);
    if (!market) return fail(res, 404, `No market with market_id ${JSON.stringify(idParam(req))}.`, { market_id: idParam(req) });
    send(res, 200, market);
  }));
  router.delete('/markets/:id', guard((req, res) => {
    if (!runtime.store.remove(idParam(req))) return fail(res, 404, `No market with market_id ${JSON.stringify(idParam(req))}.`, { market_id: idParam(req) });
    res.status(204).end();
  }));
  router.put('/markets/:id/faults', guard((req, res) => {
    const list = req.body as unknown;
    if (!Array.isArray(list) || !list.every((f) => DOMAIN_FAULTS.includes(f as DomainFault))) return fail(res, 400, `Faults must be a JSON array of ${DOMAIN_FAULTS.join(', ')}.`);
    runtime.store.setFaults(idParam(req), list as DomainFault[]);
    send(res, 200, { market_id: idParam(req), faults: list });
  }));
  router.get('/faults', (_req, res) => send(res, 200, runtime.store.faults()));
  router.post('/tick', guard((req, res) => {
    const n = (req.body as { n?: unknown } | undefined)?.n ?? 1;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10_000) return fail(res, 400, 'tick takes {"n": integer from 1 to 10000}.');
    send(res, 200, { tick: runtime.store.tick(n) });
  }));
  router.post('/reset', (_req, res) => {
    runtime.store.reset();
    runtime.behaviours.reset();
    res.status(204).end();
  });

  router.get('/behaviours', (_req, res) => send(res, 200, { global: runtime.behaviours.global(), rules: runtime.behaviours.rules() }));
  router.put('/behaviours/global', guard((req, res) => {
    runtime.behaviours.setGlobal(req.body as object);
    send(res, 200, runtime.behaviours.global());
  }));
  router.post('/behaviours/rules', guard((req, res) => send(res, 201, runtime.behaviours.addRule(req.body as BehaviourRuleInput))));
  router.delete('/behaviours/rules/:id', (req, res) => {
    if (!runtime.behaviours.removeRule(idParam(req))) return fail(res, 404, `No behaviour rule ${JSON.stringify(idParam(req))}.`);
    res.status(204).end();
  });
  router.delete('/behaviours', (_req, res) => {
    runtime.behaviours.reset();
    res.status(204).end();
  });

  const filterOf = (req: Request): JournalFilter => {
    const q = req.query as Record<string, string | undefined>;
    return {
      ...(q['method'] ? { method: q['method'] } : {}),
      ...(q['path'] ? { path: q['path'] } : {}),
      ...(q['pathPrefix'] ? { pathPrefix: q['pathPrefix'] } : {}),
      ...(q['status'] ? { status: Number(q['status']) } : {}),
    };
  };
  router.get('/requests', (req, res) => {
    const limit = req.query['limit'] === undefined ? undefined : Number(req.query['limit']);
    const j = runtime.journal;
    send(res, 200, { total: j.total(), size: j.size(), capacity: j.capacity, requests: j.list({ ...filterOf(req), ...(limit === undefined ? {} : { limit }) }) });
  });
  router.get('/requests/count', (req, res) => send(res, 200, { count: runtime.journal.count(filterOf(req)) }));
  router.delete('/requests', (_req, res) => {
    runtime.journal.clear();
    res.status(204).end();
  });
  router.use((req: Request, res: Response) => fail(res, 404, `No admin route ${req.method} /__stub${req.path}.`));
  return router;
}
