import { nearestName } from '../floor/nearest-name.js';
import { MAX_DEVIATED_MARKET_IDS, MAX_DEVIATION_SETTINGS } from '../floor/limits.js';
import { MarketStubError, optionError } from '../floor/market-stub-error.js';
import { mixSeed } from '../floor/seed-mix.js';
import { fnv1a } from '../floor/text-hash.js';
import { catalogueIndex, deviationNames, findDeviation } from './deviation-catalogue.js';
import type { Deviation, ListDeviation, MarketDeviation } from './deviation-definition.js';

/**
 * Which markets serve a deviation: every market (no `rate`, or 1), a seeded share (`rate` in
 * [0, 1]: the same markets on every run for the same seed), or the markets named in `marketIds`.
 * A deviation of the whole list takes neither.
 */
export interface DeviationSetting {
  /** A name of the catalogue (`GET /__stub/deviations`, the README table); a former domain-fault name is accepted. */
  name: string;
  /** Share of markets in [0, 1], chosen by a hash of (seed, market_id, deviation). @default 1 */
  rate?: number;
  /** These markets only (instead of a rate); each must be in the catalog. */
  marketIds?: readonly string[];
}

/** Deviations in force, checked against the catalogue: what the store serves. */
export interface DeviationPlan {
  /** Deviations of every market (rate 1) or a seeded share. */
  readonly shares: readonly { readonly deviation: MarketDeviation; readonly rate: number }[];
  /** Deviations of named markets, in catalogue order per market. */
  readonly targeted: ReadonlyMap<string, readonly MarketDeviation[]>;
  /** Deviations of the whole list, in catalogue order. */
  readonly list: readonly ListDeviation[];
}


/** No deviation at all. */
export const NO_DEVIATIONS: DeviationPlan = Object.freeze({ shares: Object.freeze([]), targeted: new Map(), list: Object.freeze([]) });

const SETTING_FIELDS = ['name', 'rate', 'marketIds'];

/**
 * Checks deviation settings (library option `deviations`, `setDeviations`, `PUT /__stub/deviations`)
 * and plans them: names in the catalogue (former names mapped), a rate in [0, 1] or market ids,
 * not both, and neither for a deviation of the whole list. Whether the market ids exist is the
 * store's to say (MARKET_NOT_FOUND).
 * @throws MarketStubError OPTION_INVALID naming the field (`deviations[2].rate`), LIMIT_EXCEEDED past the limits above.
 */
export function planDeviations(value: unknown, where: string, option = 'deviations'): DeviationPlan {
  if (!Array.isArray(value)) throw optionError(where, option, 'an array of {name, rate?, marketIds?}', value);
  if (value.length > MAX_DEVIATION_SETTINGS) throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option, expected: `at most ${MAX_DEVIATION_SETTINGS} deviation settings`, found: value.length });
  const shares: { deviation: MarketDeviation; rate: number }[] = [];
  const targeted = new Map<string, Set<MarketDeviation>>();
  const list = new Set<ListDeviation>();
  let ids = 0;
  value.forEach((entry: unknown, i) => {
    const at = `${option}[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw optionError(where, at, 'an object {name, rate?, marketIds?}', entry);
    const setting = entry as Record<string, unknown>;
    for (const key of Object.keys(setting)) if (!SETTING_FIELDS.includes(key)) throw optionError(where, `${at}.${key}`, `a known field (${SETTING_FIELDS.join(', ')})`, key);
    const deviation = requireDeviation(setting['name'], where, `${at}.name`);
    const { rate, marketIds } = setting;
    if (rate !== undefined && (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1)) throw optionError(where, `${at}.rate`, 'a number from 0 to 1 (the share of markets)', rate);
    if (marketIds !== undefined && (!Array.isArray(marketIds) || marketIds.length === 0 || !marketIds.every((id) => typeof id === 'string' && id !== ''))) throw optionError(where, `${at}.marketIds`, 'a non-empty array of market_ids', marketIds);
    if (rate !== undefined && marketIds !== undefined) throw optionError(where, at, 'either rate or marketIds, not both', 'both given');
    if (deviation.scope === 'list') {
      const expected = wholeListExpected(deviation, rate, marketIds, 'option');
      if (expected !== undefined) throw optionError(where, at, expected, rate ?? marketIds);
      list.add(deviation);
      return;
    }
    if (Array.isArray(marketIds)) {
      ids += marketIds.length;
      if (ids > MAX_DEVIATED_MARKET_IDS) throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: `${at}.marketIds`, expected: `at most ${MAX_DEVIATED_MARKET_IDS} market ids in all`, found: ids });
      for (const id of marketIds as string[]) {
        let own = targeted.get(id);
        if (!own) targeted.set(id, (own = new Set()));
        own.add(deviation);
      }
      return;
    }
    shares.push({ deviation, rate: (rate as number | undefined) ?? 1 });
  });
  const plan: DeviationPlan = Object.freeze({
    shares: Object.freeze(shares),
    targeted: new Map([...targeted].map(([id, set]) => [id, inCatalogueOrder([...set])])),
    list: Object.freeze(inCatalogueOrder([...list])),
  });
  refuseConflicts(plan, where, option);
  return plan;
}

/**
 * Why two deviations cannot be served in one answer, or undefined when they compose. Every
 * other pair composes (rewrites apply in catalogue order, test/deviation/deviation-pairs.test.ts);
 * these two both set the answer's Content-Type, which one answer has only one of.
 */
export function conflictBetween(a: Deviation, b: Deviation): string | undefined {
  const [typeA, typeB] = [a.reply?.contentType, b.reply?.contentType];
  if (a === b || typeA === undefined || typeB === undefined || a.scope !== b.scope) return undefined;
  return `${a.name} and ${b.name} both set the Content-Type (${typeA}; ${typeB}) and one answer has one: serve them to different markets (marketIds) or one at a time`;
}

/**
 * Refuses deviations that can meet on one answer and do not compose (conflictBetween): two of the
 * list, two given to a share of markets (whatever the rates), or one given to a share and one to a
 * named market, or two to the same named market.
 * @throws MarketStubError OPTION_INVALID naming the pair.
 */
export function refuseConflicts(plan: Pick<DeviationPlan, 'shares' | 'targeted' | 'list'>, where: string, option = 'deviations'): void {
  // Only deviations that set something single-valued can conflict: a few, whatever the plan's size.
  const setting = (deviations: readonly Deviation[]) => deviations.filter((d) => d.reply?.contentType !== undefined);
  const shared = setting(plan.shares.map((s) => s.deviation));
  const groups: (readonly Deviation[])[] = [setting(plan.list), shared];
  for (const own of plan.targeted.values()) {
    const mine = setting(own);
    if (mine.length > 0) groups.push([...shared, ...mine]);
  }
  for (const group of groups) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const why = conflictBetween(group[i] as Deviation, group[j] as Deviation);
        if (why !== undefined) throw new MarketStubError({ code: 'OPTION_INVALID', where, option, expected: 'deviations that can be served together', foundText: why });
      }
    }
  }
}

/**
 * Checks the deviation names of one market (`PUT /__stub/markets/{id}/deviations`), in catalogue order.
 * @throws MarketStubError OPTION_INVALID for a name outside the catalogue or a deviation of the whole list.
 */
export function marketDeviations(value: unknown, where: string, option = 'deviations'): MarketDeviation[] {
  if (!Array.isArray(value) || value.length > MAX_DEVIATION_SETTINGS) throw optionError(where, option, `an array of at most ${MAX_DEVIATION_SETTINGS} deviation names such as ["string-price"] ([] clears)`, value);
  const found = new Set<MarketDeviation>();
  value.forEach((name: unknown, i) => {
    const deviation = requireDeviation(name, where, `${option}[${i}]`);
    if (deviation.scope === 'list') throw optionError(where, `${option}[${i}]`, `a deviation of one market (${deviation.name} changes the whole list: PUT /__stub/deviations or setDeviations)`, name);
    found.add(deviation);
  });
  return inCatalogueOrder([...found]);
}

/** The settings a plan stands for (what `GET /__stub/deviations` shows as `active`): shares, then per deviation the markets it targets. */
export function describePlan(plan: DeviationPlan): DeviationSetting[] {
  const byDeviation = new Map<MarketDeviation, string[]>();
  for (const [id, deviations] of plan.targeted) {
    for (const deviation of deviations) {
      let ids = byDeviation.get(deviation);
      if (!ids) byDeviation.set(deviation, (ids = []));
      ids.push(id);
    }
  }
  return [
    ...plan.shares.map((s) => (s.rate === 1 ? { name: s.deviation.name } : { name: s.deviation.name, rate: s.rate })),
    ...inCatalogueOrder([...byDeviation.keys()]).map((d) => ({ name: d.name, marketIds: byDeviation.get(d) ?? [] })),
    ...plan.list.map((d) => ({ name: d.name })),
  ];
}

/**
 * The one rule of a deviation of the whole list (scope `list`): it changes the list for everyone,
 * so it takes no share of markets (no rate, or 1) and no market ids. Every market deviation passes.
 * Worded for the surface the setting came from: the library option's fields (`option`: planDeviations)
 * or the flag and variable's `=RATE` (`flag`: parseDeviationFlags).
 * @returns what the surface expected, or undefined when the setting keeps the rule.
 */
function wholeListExpected(deviation: Deviation, rate: unknown, marketIds: unknown, surface: keyof typeof WHOLE_LIST_EXPECTED): string | undefined {
  if (deviation.scope !== 'list' || ((rate === undefined || rate === 1) && marketIds === undefined)) return undefined;
  return WHOLE_LIST_EXPECTED[surface](deviation.name);
}

/** What each surface expected of a deviation of the whole list, in its own terms. */
const WHOLE_LIST_EXPECTED = {
  option: (name: string) => `no rate and no marketIds: ${name} changes the whole list`,
  flag: (name: string) => `${name} without =RATE (it changes the whole list)`,
};

/**
 * Reads `--deviation NAME[=RATE]` values (a repeated flag, or comma-separated in
 * MARKET_STUB_DEVIATION): NAME alone is every market, RATE a share from 0 to 1; a deviation of the
 * whole list takes no RATE but 1 (wholeListExpected, the rule planDeviations applies too).
 * @throws MarketStubError OPTION_INVALID whose `where` is `source` (the flag or variable as given).
 */
export function parseDeviationFlags(items: readonly string[], source: string): DeviationSetting[] {
  return items.map((item) => {
    const [name = '', rateText, ...rest] = item.split('=').map((part) => part.trim());
    const rate = rateText === undefined ? undefined : Number(rateText);
    const deviation = requireDeviation(name, source, undefined, item);
    if (rest.length > 0 || (rateText !== undefined && (!/^\d*\.?\d+$/.test(rateText) || (rate as number) > 1))) {
      throw new MarketStubError({ code: 'OPTION_INVALID', where: source, expected: 'NAME or NAME=RATE with RATE a share of markets from 0 to 1', found: item });
    }
    const expected = wholeListExpected(deviation, rate, undefined, 'flag');
    if (expected !== undefined) throw new MarketStubError({ code: 'OPTION_INVALID', where: source, expected, found: item });
    return rate === undefined ? { name } : { name, rate };
  });
}

/**
 * The deviation a request asks for with `Prefer: deviation=NAME` (RFC 7240: the first instance
 * of a preference counts; a quoted value is unquoted), or undefined when it asks for none.
 * @throws MarketStubError OPTION_INVALID (where `Prefer`) for a name outside the catalogue.
 */
export function preferredDeviation(header: string): Deviation | undefined {
  for (const part of header.split(',')) {
    const [name, ...rest] = part.split(';')[0]?.split('=') ?? [];
    if (name?.trim().toLowerCase() !== 'deviation') continue;
    return requireDeviation(rest.join('=').trim().replace(/^"(.*)"$/, '$1'), 'Prefer', 'deviation');
  }
  return undefined;
}

/**
 * Whether a market serves a deviation given to a share of markets: a hash of (seed, market_id,
 * the deviation's name) below the rate. Independent of request order, catalog order and edits;
 * different deviations choose independently.
 */
export function selectsMarket(seed: number, idHash: number, deviation: MarketDeviation, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return mixSeed(seed, idHash, fnv1a(deviation.name)) / 2 ** 32 < rate;
}

function requireDeviation(name: unknown, where: string, option: string | undefined, given: unknown = name): Deviation {
  const deviation = typeof name === 'string' ? findDeviation(name) : undefined;
  if (deviation) return deviation;
  const near = typeof name === 'string' ? nearName(name) : undefined;
  const expected = near === undefined ? 'a deviation name (docs/deviations.md and GET /__stub/deviations list them)' : `a deviation name (did you mean ${near}? docs/deviations.md and GET /__stub/deviations list them)`;
  if (option === undefined) throw new MarketStubError({ code: 'OPTION_INVALID', where, expected, found: given });
  throw optionError(where, option, expected, given);
}

/**
 * The catalogue names a near miss meant: the nearest by edits (floor/nearest-name.ts: `strng-price` → `string-price`),
 * else the names that contain it as a word (`bom` → `item-bom or list-bom`), or undefined.
 */
function nearName(given: string): string | undefined {
  const names = deviationNames();
  const best = nearestName(given, names);
  if (best !== undefined) return best;
  const word = given.trim().toLowerCase();
  const containing = word === '' ? [] : names.filter((name) => name.split('-').includes(word) || name.includes(`-${word}-`));
  return containing.length > 0 && containing.length <= 4 ? containing.join(' or ') : undefined;
}

function inCatalogueOrder<T extends Deviation>(deviations: T[]): T[] {
  return deviations.sort((a, b) => catalogueIndex(a) - catalogueIndex(b));
}
