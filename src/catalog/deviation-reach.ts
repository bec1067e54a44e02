import { MAX_REACH_COUNTED } from '../floor/limits.js';
import { fnv1a } from '../floor/text-hash.js';
import type { MarketDeviation } from '../deviation/deviation-definition.js';
import { selectsMarket, type DeviationPlan } from '../deviation/deviation-settings.js';

/**
 * What one deviation in force reaches now, in the order `GET /__stub/deviations` lists the
 * settings (`active`): a share of markets, the markets named for it, or the whole list.
 */
export interface DeviationReach {
  /** The deviation's name. */
  name: string;
  /** `market`: some markets serve it; `list`: it changes the list for everyone. */
  scope: 'market' | 'list';
  /** How the setting chose its markets: every market, a seeded share (`rate`), named markets (`marketIds`), or none (a deviation of the list). */
  chosen: 'all' | 'rate' | 'marketIds' | 'list';
  /** The share of markets given (`--deviation NAME=RATE`), when one was (1: every market). */
  rate?: number;
  /** How many markets serve it now; absent for a deviation of the list. */
  markets?: number;
  /** Set when `markets` is the rate times the catalog size (a catalog above MAX_REACH_COUNTED), not a count. */
  estimated?: true;
  /** How many markets the catalog holds now. */
  catalog: number;
  /** The markets that serve it, in catalog order (named markets in the order given); absent when estimated. */
  marketIds?: string[];
}

/** The parts of the store a reach is counted over. */
export interface ReachParts {
  size: number;
  seed: number;
  idAt(index: number): string | undefined;
  has(marketId: string): boolean;
}

/**
 * Which markets each deviation of a plan reaches: a share is counted market by market (the same
 * seeded choice the store serves, selectsMarket) when the catalog holds at most `countUpTo`
 * markets, else estimated as round(rate × size); named markets are those still in the catalog.
 * @param countUpTo largest catalog counted one by one (MAX_REACH_COUNTED by default). O(size × shares) when counted.
 */
export function deviationReach(plan: DeviationPlan, parts: ReachParts, countUpTo = MAX_REACH_COUNTED): DeviationReach[] {
  const catalog = parts.size;
  const counted = catalog <= countUpTo ? shareMembers(plan.shares, parts) : undefined;
  const shares = plan.shares.map((share, i): DeviationReach => {
    const base = { name: share.deviation.name, scope: 'market' as const, ...(share.rate === 1 ? { chosen: 'all' as const } : { chosen: 'rate' as const, rate: share.rate }), catalog };
    const ids = counted?.[i];
    return ids ? { ...base, markets: ids.length, marketIds: ids } : { ...base, markets: Math.round(share.rate * catalog), estimated: true };
  });
  const named = new Map<MarketDeviation, string[]>();
  for (const [id, deviations] of plan.targeted) {
    if (!parts.has(id)) continue;
    for (const d of deviations) named.set(d, [...(named.get(d) ?? []), id]);
  }
  const targeted = [...named].map(([d, ids]): DeviationReach => ({ name: d.name, scope: 'market', chosen: 'marketIds', markets: ids.length, catalog, marketIds: ids }));
  const list = plan.list.map((d): DeviationReach => ({ name: d.name, scope: 'list', chosen: 'list', catalog }));
  return [...shares, ...targeted, ...list];
}

/** For each share of the plan, the ids of the markets it selects, visiting the catalog once. */
function shareMembers(shares: DeviationPlan['shares'], parts: ReachParts): string[][] {
  const members = shares.map((): string[] => []);
  if (shares.length === 0) return members;
  for (let i = 0; i < parts.size; i++) {
    const id = parts.idAt(i);
    if (id === undefined) continue;
    const h = fnv1a(id);
    shares.forEach((share, k) => {
      if (selectsMarket(parts.seed, h, share.deviation, share.rate)) members[k]?.push(id);
    });
  }
  return members;
}

/** `string-price=0.1` or `item-bom`: a reach as the flag would give it. */
function settingText(reach: DeviationReach): string {
  return reach.rate === undefined ? reach.name : `${reach.name}=${reach.rate}`;
}

/**
 * One phrase per deviation in force, for the start-up line: `string-price=0.1 on 3 of 25 markets`,
 * `item-bom on 1 named market`, `list-bom on the list`; `about 1000 of 100000` when estimated.
 */
export function describeReach(reach: readonly DeviationReach[]): string {
  return reach.map((r) => {
    if (r.scope === 'list') return `${r.name} on the list`;
    if (r.chosen === 'marketIds') return `${r.name} on ${r.markets} named market${r.markets === 1 ? '' : 's'}`;
    return `${settingText(r)} on ${r.estimated ? 'about ' : ''}${r.markets ?? 0} of ${r.catalog} markets`;
  }).join(', ');
}

/**
 * A warning for each share that serves no market of the catalog now: the deviation, its rate,
 * the catalog's size and what to do. Empty when every share reaches a market.
 */
export function reachWarnings(reach: readonly DeviationReach[]): string[] {
  return reach.filter((r) => r.scope === 'market' && r.markets === 0 && r.catalog > 0).map((r) =>
    `deviation ${settingText(r)} ${r.estimated ? 'is expected to select' : 'selects'} none of the ${r.catalog} markets of this catalog, so no answer deviates: raise the rate, or name markets (marketIds; PUT /__stub/markets/{id}/deviations)`);
}
