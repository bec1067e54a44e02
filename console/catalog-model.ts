// What the catalog pane shows, computed from admin API data alone (no DOM): testable under Node.
import type { DeviationState, MarketRow } from './console-types.js';
import { text } from './value-text.js';

/** A deviation as one market serves it: named for it, for every market, or for a seeded share (which may or may not include it). */
export interface MarketDeviationTag {
  name: string;
  kind: 'market' | 'all' | 'rate';
  label: string;
}

/** The deviations in force that concern one market (list deviations concern the list, not a market). */
export function deviationsOf(marketId: string, state: DeviationState): MarketDeviationTag[] {
  const scope = new Map(state.catalogue.map((d) => [d.name, d.scope]));
  const tags: MarketDeviationTag[] = [];
  for (const setting of state.active) {
    if (scope.get(setting.name) === 'list') continue;
    if (setting.marketIds) {
      if (setting.marketIds.includes(marketId)) tags.push({ name: setting.name, kind: 'market', label: setting.name });
    } else if (setting.rate === undefined || setting.rate === 1) {
      tags.push({ name: setting.name, kind: 'all', label: `${setting.name} (all)` });
    } else {
      tags.push({ name: setting.name, kind: 'rate', label: `${setting.name} ~${Math.round(setting.rate * 100)}%` });
    }
  }
  return tags;
}

/** Whether a market matches a search: every word in its id, title, status, resolution date or deviation names. */
export function marketMatches(market: MarketRow, tags: readonly MarketDeviationTag[], query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const haystack = [market.market_id, text(market.title), text(market.status), text(market.resolution_date), ...tags.map((t) => t.label)].join(' ').toLowerCase();
  return words.every((w) => haystack.includes(w));
}

/** Bars of the price chart: prices 0–1 in steps of 1/PRICE_BINS. */
export const PRICE_BINS = 20;

/** How many markets' yes_price fall in each bin of [0, 1] (1 itself in the last); prices that are not numbers in [0, 1] are counted apart. */
export function priceBins(markets: readonly MarketRow[], bins = PRICE_BINS): { counts: number[]; outside: number } {
  const counts = new Array<number>(bins).fill(0);
  let outside = 0;
  for (const market of markets) {
    const price = market.yes_price;
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > 1) {
      outside += 1;
      continue;
    }
    const bin = Math.min(bins - 1, Math.floor(price * bins));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  return { counts, outside };
}

/** Markets whose yes_price + no_price is not 1 (to the cent), or not two numbers. */
export function unbalanced(markets: readonly MarketRow[]): number {
  return markets.filter((m) => typeof m.yes_price !== 'number' || typeof m.no_price !== 'number' || Math.abs(m.yes_price + m.no_price - 1) > 0.005).length;
}
