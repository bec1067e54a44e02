import type { AdminRoute } from './admin-route.js';
import { jsonArrayChunks } from './admin-route.js';

/** `?method=&path=&pathPrefix=&status=&limit=` as a filter for the shared controls to check (numbers when they look like numbers). */
function filterOf(query: URLSearchParams): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [key, value] of query) filter[key] = (key === 'status' || key === 'limit') && /^\d{1,9}$/.test(value) ? Number(value) : value;
  return filter;
}

/** The journal resource. */
export const JOURNAL_ROUTES: readonly AdminRoute[] = [
  {
    method: 'GET', path: '/requests', describe: 'journal entries, oldest first: the newest ?limit= (default and at most 1,000) matching ?method=&path=&pathPrefix=&status=',
    run: ({ controls, where, query }) => {
      const requests = controls.requests(where, filterOf(query));
      const stats = JSON.stringify(controls.journalStats(where));
      function* body(): Generator<string> {
        yield `${stats.slice(0, -1)},"requests":`;
        yield* jsonArrayChunks(requests, 100);
        yield '}';
      }
      return { status: 200, chunks: body() };
    },
  },
  { method: 'GET', path: '/requests/count', describe: 'how many journal entries match the same filters', run: ({ controls, where, query }) => ({ status: 200, body: { count: controls.requestCount(where, filterOf(query)) } }) },
  {
    method: 'DELETE', path: '/requests', describe: 'empty the journal',
    run: ({ controls, where }) => {
      controls.clearRequests(where);
      return { status: 204 };
    },
  },
];
