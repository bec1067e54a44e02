import type { MarketStore } from '../catalog/market-store.js';
import { LAGGING_LIST_TARGETS } from '../floor/limits.js';
import type { Reply } from './reply.js';

/** A list answer as rendered at one catalog version (`MarketStore.changes()`). */
interface Rendered {
  version: number;
  reply: Reply;
}

// Per store, per request target: the list as last rendered at the two latest versions it was asked for.
const renderedByStore = new WeakMap<MarketStore, Map<string, Rendered[]>>();

/**
 * The list of `list-lags-items`: one change behind the markets. Each list answer is kept with the
 * catalog version it was rendered at (per request target: path, query); a request is answered with
 * the latest kept rendering of an earlier version, so after an edit or a tick the list still
 * shows the markets as they were, while `GET /markets/{id}` shows them as they are; until the
 * catalog first changes, or when no earlier rendering of the target was kept, the current list.
 * A streamed list (chunks) is served as it is. Bounded: LAGGING_LIST_TARGETS targets a store,
 * forgotten all at once when full.
 */
export function laggingList(store: MarketStore, target: string, current: Reply): Reply {
  if (current.chunks) return current;
  let byTarget = renderedByStore.get(store);
  if (!byTarget) renderedByStore.set(store, (byTarget = new Map()));
  const version = store.changes();
  const kept = byTarget.get(target) ?? [];
  const older = kept.filter((r) => r.version < version).at(-1);
  const next = [...(older ? [older] : []), { version, reply: copy(current) }];
  if (!byTarget.has(target) && byTarget.size >= LAGGING_LIST_TARGETS) byTarget.clear();
  byTarget.set(target, next);
  return older ? copy(older.reply) : current;
}

/** A reply whose headers the later stages may change in place without touching the kept one. */
function copy(reply: Reply): Reply {
  return { ...reply, headers: { ...reply.headers } };
}
