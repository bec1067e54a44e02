import type { AdminRoute } from './admin-route.js';

/** The deviations resource: the catalogue, what is in force, and one market's deviations. */
export const DEVIATION_ROUTES: readonly AdminRoute[] = [
  { method: 'GET', path: '/deviations', describe: 'the deviation catalogue (name, class, endpoints, description, findings check reports) and the deviations in force', run: ({ controls, where }) => ({ status: 200, body: controls.deviations(where) }) },
  {
    method: 'PUT', path: '/deviations', body: true, describe: 'replace every deviation in force ([{"name":"string-price","rate":0.1}, {"name":"item-bom","marketIds":["A"]}, {"name":"list-500"}]; [] clears)',
    run: ({ controls, where, body }) => {
      controls.setDeviations(where, body);
      return { status: 200, body: { active: controls.deviations(where).active } };
    },
  },
  {
    method: 'PUT', path: '/markets/{id}/deviations', body: true, describe: 'the deviations of one market (["string-price","item-slow"]; [] clears)',
    run: ({ controls, where, body, params }) => ({ status: 200, body: { market_id: params['id'], deviations: controls.setMarketDeviations(where, params['id'] ?? '', body) } }),
  },
];
