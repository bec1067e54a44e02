import { adminFailure } from './admin-error.js';
import { jsonArrayChunks, type AdminRoute } from './admin-route.js';

/** The catalog resource: markets, one market, ticks and reset (one small router per resource, so each admin route is found by its resource). */
export const MARKET_ROUTES: readonly AdminRoute[] = [
  { method: 'GET', path: '/markets', describe: 'every market as stored, in catalog order', run: ({ controls, where }) => ({ status: 200, chunks: jsonArrayChunks(controls.catalog(where)) }) },
  {
    method: 'PUT', path: '/markets', body: true, describe: 'replace the catalog (a JSON array of markets; all or nothing)',
    run: ({ controls, where, body, runtime }) => {
      controls.setMarkets(where, body);
      return { status: 200, body: { count: runtime.store.current().size } };
    },
  },
  {
    method: 'POST', path: '/markets', body: true, describe: 'add one market (409 when its market_id exists)',
    run: ({ controls, where, body }) => {
      const id = (body as { market_id?: unknown } | null | undefined)?.market_id;
      if (typeof id === 'string' && controls.hasMarket(id)) {
        throw adminFailure('OPTION_INVALID', where, `a market with market_id ${JSON.stringify(id)} exists; PUT /__stub/markets/{id} replaces it.`, { status: 409, option: 'market_id', expected: 'a market_id not in the catalog', found: id });
      }
      controls.putMarket(where, body);
      return { status: 201, body };
    },
  },
  { method: 'GET', path: '/markets/{id}', describe: 'one market as stored (before deviations)', run: ({ controls, where, params }) => ({ status: 200, body: controls.market(where, params['id'] ?? '') }) },
  {
    method: 'PUT', path: '/markets/{id}', body: true, describe: 'add or replace one market (its market_id must be the path id)',
    run: ({ controls, where, body, params }) => {
      const id = params['id'] ?? '';
      const given = (body as { market_id?: unknown } | null | undefined)?.market_id;
      if (given !== id) throw adminFailure('OPTION_INVALID', where, `the body's market_id must be the path's (${JSON.stringify(id)}).`, { option: 'market_id', expected: JSON.stringify(id), found: given });
      return { status: controls.putMarket(where, body) === 'created' ? 201 : 200, body };
    },
  },
  { method: 'PATCH', path: '/markets/{id}', body: true, describe: 'RFC 7396 merge patch (null removes a member; the result is validated first)', run: ({ controls, where, body, params }) => ({ status: 200, body: controls.patchMarket(where, params['id'] ?? '', body) }) },
  {
    method: 'DELETE', path: '/markets/{id}', describe: 'remove one market',
    run: ({ controls, where, params }) => {
      controls.removeMarket(where, params['id'] ?? '');
      return { status: 204 };
    },
  },
  {
    method: 'POST', path: '/tick', body: true, describe: 'move prices n ticks ({"n":3}; default 1)',
    run: ({ controls, where, body }) => {
      if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw adminFailure('OPTION_INVALID', where, 'the body must be an object such as {"n":3}.', { option: 'body', expected: 'an object such as {"n":3}', found: body });
      return { status: 200, body: { tick: controls.tick(where, (body as { n?: unknown } | undefined)?.n) } };
    },
  },
  {
    method: 'POST', path: '/reset', describe: 'start-up markets, deviations, tick and behaviours again (the journal is kept)',
    run: ({ controls, where }) => {
      controls.reset(where);
      return { status: 204 };
    },
  },
];
