import type { MarketStore } from '../catalog/market-store.js';
import { LAGGING_LIST_TARGETS } from '../floor/limits.js';
import type { Reply } from './reply.js';

/** A list answer as rendered at one version of what is served: the catalog's changes (`MarketStore.changes()`) and the clock's price step (`stepAt`). */
interface Rendered {
  changes: number;
  step: number;
  reply: Reply;
}

/** Whether `a` was rendered before `b`: fewer changes, or as many and an earlier step (a change that sets the clock back, `reset`, is one more change). */
function before(a: Rendered, b: { changes: number; step: number }): boolean {
  return a.changes < b.changes || (a.changes === b.changes && a.step < b.step);
}

/** How many versions the list lags: two, so a watch that reads the list before the single markets tells it from a price that moved between its two requests (a lag of one looks the same). */
const LAG_VERSIONS = 2;

// Per store, per request target: the list as last rendered at the latest versions it was asked for (LAG_VERSIONS + 1).
const renderedByStore = new WeakMap<MarketStore, Map<string, Rendered[]>>();

/**
 * The list of `list-lags-items`: two changes behind the markets. Each list answer is kept with the
 * version it was rendered at (per request target: path, query): the catalog's changes and the
 * price step of the stub clock at `t`, so an edit, a deviation set, a tick or the running clock
 * passing a step start each make a new version (prices, statuses and the deviations that follow
 * the clock move at step starts). A request is answered with the rendering kept LAG_VERSIONS
 * versions before its own (or the earliest kept), so the list still shows the markets as they
 * were, while `GET /markets/{id}` shows them as they are; until what is served first changes, or
 * when no earlier rendering of the target was kept, the current list. A streamed list (chunks) is served as it is. Bounded:
 * LAGGING_LIST_TARGETS targets a store, forgotten all at once when full.
 * @param t the request's stub instant, epoch ms.
 */
export function laggingList(store: MarketStore, target: string, current: Reply, t: number): Reply {
  if (current.chunks) return current;
  let byTarget = renderedByStore.get(store);
  if (!byTarget) renderedByStore.set(store, (byTarget = new Map()));
  const version = { changes: store.changes(), step: store.stepAt(t) };
  const earlier = (byTarget.get(target) ?? []).filter((r) => before(r, version)).slice(-LAG_VERSIONS);
  const served = earlier[0];
  if (!byTarget.has(target) && byTarget.size >= LAGGING_LIST_TARGETS) byTarget.clear();
  byTarget.set(target, [...earlier, { ...version, reply: copy(current) }]);
  return served ? copy(served.reply) : current;
}

/** A reply whose headers the later stages may change in place without touching the kept one. */
function copy(reply: Reply): Reply {
  return { ...reply, headers: { ...reply.headers } };
}
