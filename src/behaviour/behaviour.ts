import { locatedProblem, MarketStubError, type ErrorFinding } from '../floor/market-stub-error.js';
import { MAX_HOLD_MS, MAX_RULES, MAX_STATUS } from '../floor/limits.js';
import { mixSeed } from '../floor/seed-mix.js';

/** Transport faults: `reset` (TCP RST before any byte), `truncate` (Content-Length promises the whole body, half arrives, then the connection closes), `malformed` (a complete response whose JSON is cut in half), `slow-body` (the body dribbled in chunks over `dribbleMs`). */
export const TRANSPORT_FAULTS = ['reset', 'truncate', 'malformed', 'slow-body'] as const;
export type TransportFault = (typeof TRANSPORT_FAULTS)[number];

/** What to do to a response. Every field is optional; layers merge field by field. */
export interface Behaviour {
  /** Fixed delay before the response starts, ms. */
  delayMs?: number;
  /** Extra seeded random delay in [0, jitterMs), ms. */
  jitterMs?: number;
  /**
   * Answer with this status (200–599: a 1xx is not a final answer, RFC 9110 §15.2). From 400 the
   * body is a JSON error in the profile's shape; below 400 the normal body is sent with this status
   * (none for 204, 205 and 304, RFC 9110 §15.3.5, §15.3.6, §15.4.5).
   */
  status?: number;
  /** Seconds for a Retry-After header (RFC 9110 §10.2.3); sent with 429/503 overrides. */
  retryAfter?: number;
  /** Share of requests in [0, 1] that get `status` (default 500); seeded, so the same requests fail on every run. */
  errorRate?: number;
  fault?: TransportFault;
  /** slow-body: time over which the body is dribbled, ms. @default 2000 */
  dribbleMs?: number;
}

/** Which requests a rule applies to. Empty matches every market request. */
export interface RuleMatch {
  /** `list` is GET /markets, `item` is GET /markets/{id}. */
  route?: 'list' | 'item';
  /** Exact market_id (after URL decoding) of item requests. */
  marketId?: string;
  method?: string;
}

/** A behaviour for matching requests, optionally for the next `times` matches only. */
export interface BehaviourRule {
  id: string;
  match: RuleMatch;
  behaviour: Behaviour;
  /** As read back (`rules()`): the applications left; undefined means until removed. */
  times?: number;
}

export type BehaviourRuleInput = Omit<BehaviourRule, 'id'> & { id?: string };

/** A resolved decision for one request. */
export interface AppliedBehaviour {
  delayMs: number;
  status?: number;
  retryAfter?: number;
  fault?: TransportFault;
  dribbleMs: number;
  /** Names of what was applied, for the journal and logs (`delay=200`, `status=503 (rule r1)`). */
  labels: string[];
  /** The rules this request matched, with the applications each has left after it (absent when none matched). */
  rules?: RuleUse[];
}

/** One rule a request matched: its id and, for a rule with `times`, the applications left after this one (0: used up and removed). */
export interface RuleUse {
  id: string;
  left?: number;
}

/** The set of behaviours in force: global ones, rules, and per-request Prefer headers. */
export interface BehaviourEngine {
  global(): Behaviour;
  setGlobal(behaviour: Behaviour): void;
  rules(): BehaviourRule[];
  addRule(rule: BehaviourRuleInput): BehaviourRule;
  removeRule(id: string): boolean;
  /** Clears runtime rules and restores the start-up global behaviour. */
  reset(): void;
  /**
   * Decides what applies to one request: global < route rule < market rule < Prefer header, merged
   * field by field. Rules with `times` count down and disappear at 0.
   */
  decide(request: { route: 'list' | 'item'; marketId?: string; method: string }, prefer?: Behaviour): AppliedBehaviour;
}


/** Statuses a behaviour may answer with: final answers only (RFC 9110 §15: 1xx are interim). */
export const MIN_STATUS = 200;

const NO_BEHAVIOUR: AppliedBehaviour = Object.freeze({ delayMs: 0, dribbleMs: 2000, labels: Object.freeze([]) as unknown as string[] });

/**
 * A behaviour or rule that does not make sense: a MarketStubError (`OPTION_INVALID`) whose
 * `option` is the field path (`behaviour.delayMs`, `rule r1.match.route`); surfaces relocate it
 * (`relocate`) to name themselves.
 */
export class BehaviourError extends MarketStubError {
  constructor(option: string, expected: string, found?: unknown) {
    super({ code: 'OPTION_INVALID', where: 'behaviour', option, expected, ...(found === undefined ? {} : { found }) });
    this.message = `${option}: expected ${expected}${this.found === undefined ? '' : `, found ${this.found}`}`;
  }
}

/**
 * Checks a behaviour's fields (types and ranges).
 * @throws BehaviourError naming the first bad field, e.g. `status: expected an integer from 200 to 599, found 101`.
 */
export function checkBehaviour(input: unknown, where = 'behaviour'): Behaviour {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new BehaviourError(where, 'an object', input);
  const b = input as Record<string, unknown>;
  const known = ['delayMs', 'jitterMs', 'status', 'retryAfter', 'errorRate', 'fault', 'dribbleMs'];
  for (const key of Object.keys(b)) if (!known.includes(key)) throw new BehaviourError(`${where}.${key}`, `a known field (${known.join(', ')})`, key);
  const num = (key: string, min: number, max: number, integer = true) => {
    const v = b[key];
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
      throw new BehaviourError(`${where}.${key}`, `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`, v);
    }
  };
  num('delayMs', 0, MAX_HOLD_MS);
  num('jitterMs', 0, MAX_HOLD_MS);
  num('status', MIN_STATUS, MAX_STATUS);
  num('retryAfter', 0, 86_400);
  num('errorRate', 0, 1, false);
  num('dribbleMs', 0, MAX_HOLD_MS);
  if (b['fault'] !== undefined && !TRANSPORT_FAULTS.includes(b['fault'] as TransportFault)) throw new BehaviourError(`${where}.fault`, `one of ${TRANSPORT_FAULTS.join(', ')}`, b['fault']);
  return b as Behaviour;
}

/**
 * Reads Prism-style preferences from a `Prefer` header (RFC 7240 syntax: `name=value` pairs
 * separated by commas): `code`, `delay`, `jitter`, `retry-after`, `error-rate`, `fault`,
 * `dribble`. Preferences it does not know are ignored (RFC 7240 §2).
 * @throws BehaviourError when a known preference has a bad value.
 */
export function parsePrefer(header: string | undefined): Behaviour | undefined {
  if (!header) return undefined;
  const raw: Record<string, unknown> = {};
  const names: Record<string, [keyof Behaviour, 'int' | 'num' | 'str']> = {
    code: ['status', 'int'], delay: ['delayMs', 'int'], jitter: ['jitterMs', 'int'], 'retry-after': ['retryAfter', 'int'],
    'error-rate': ['errorRate', 'num'], fault: ['fault', 'str'], dribble: ['dribbleMs', 'int'],
  };
  for (const part of header.split(',')) {
    const [name, ...rest] = part.split(';')[0]?.split('=') ?? [];
    const key = name?.trim().toLowerCase() ?? '';
    const spec = names[key];
    if (!spec) continue;
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
    raw[spec[0]] = spec[1] === 'str' ? value : Number(value === '' ? Number.NaN : value);
  }
  return Object.keys(raw).length === 0 ? undefined : checkBehaviour(raw, 'Prefer');
}

/**
 * Creates the behaviour engine. `seed` makes jitter and error-rate choices reproducible: the n-th
 * request a layer sees gets the same decision on every run.
 *
 * Rules are immutable (frozen when added); the applications left of rules with `times` live in a
 * separate map, so `reset()` brings back the start-up rules exactly, full counts included (a
 * reset test can rely on the rules it started with).
 */
export function createBehaviourEngine(options: { seed: number; global?: Behaviour; rules?: readonly BehaviourRuleInput[] }): BehaviourEngine {
  const startGlobal = checkBehaviour(options.global ?? {}, 'global');
  let globalBehaviour: Behaviour = startGlobal;
  let globalIsEmpty = Object.keys(startGlobal).length === 0;
  let rules: readonly BehaviourRule[] = [];
  let remaining = new Map<string, number>();
  let nextId = 1;
  const counters = new Map<string, number>();
  const draw = seededDraw(options.seed, counters);
  const addRule = (input: BehaviourRuleInput): BehaviourRule => {
    const rule = checkRule(input, () => `r${nextId++}`);
    if (rules.length >= MAX_RULES && !rules.some((r) => r.id === rule.id)) throw new RangeError(`at most ${MAX_RULES} behaviour rules are in force at once (MAX_RULES, docs/limits.md); remove one (removeRule) or reset first`);
    rules = [...rules.filter((r) => r.id !== rule.id), rule];
    if (rule.times === undefined) remaining.delete(rule.id);
    else remaining.set(rule.id, rule.times);
    return readBack(rule, remaining);
  };
  for (const r of options.rules ?? []) addRule(r);
  const startRules = rules;
  const startRemaining = new Map(remaining);
  // A rule with `times` is used up by its last application and leaves the list.
  const use = (rule: BehaviourRule) => {
    if (useOnce(remaining, rule.id)) rules = rules.filter((x) => x !== rule);
  };

  return {
    global: () => globalBehaviour,
    setGlobal: (b) => {
      globalBehaviour = checkBehaviour(b, 'global');
      globalIsEmpty = Object.keys(globalBehaviour).length === 0;
    },
    rules: () => rules.map((rule) => readBack(rule, remaining)),
    addRule,
    removeRule: (id) => {
      const before = rules.length;
      rules = rules.filter((r) => r.id !== id);
      remaining.delete(id);
      return rules.length !== before;
    },
    reset: () => {
      globalBehaviour = startGlobal;
      globalIsEmpty = Object.keys(startGlobal).length === 0;
      rules = startRules;
      remaining = new Map(startRemaining);
      counters.clear();
    },
    decide(request, prefer) {
      // The common case, nothing configured: one shared, empty decision and no allocation.
      if (!prefer && rules.length === 0 && globalIsEmpty) return NO_BEHAVIOUR;
      const layers: [string, Behaviour][] = [['global', globalBehaviour]];
      const used: RuleUse[] = [];
      for (const r of rulesMatching(rules, request)) {
        layers.push([`rule ${r.id}`, r.behaviour]);
        use(r);
        used.push(r.times === undefined ? { id: r.id } : { id: r.id, left: remaining.get(r.id) ?? 0 });
      }
      if (prefer) layers.push(['Prefer', prefer]);
      const applied = capHold(mergeLayers(layers, draw));
      if (used.length > 0) applied.rules = used;
      return applied;
    },
  };
}

/** The n-th draw of a layer's stream, seeded: the same request order gives the same draws. */
function seededDraw(seed: number, counters: Map<string, number>): (layer: string, stream: number) => number {
  return (layer, stream) => {
    const n = counters.get(`${layer}:${stream}`) ?? 0;
    counters.set(`${layer}:${stream}`, n + 1);
    return mixSeed(seed, n, stream + hashLayer(layer));
  };
}

/** Counts one application of a rule with `times`. @returns whether that was its last. */
function useOnce(remaining: Map<string, number>, id: string): boolean {
  const left = remaining.get(id);
  if (left === undefined) return false;
  if (left > 1) remaining.set(id, left - 1);
  else remaining.delete(id);
  return left <= 1;
}

/** A copy of a rule as callers read it, with the applications it has left. */
function readBack(rule: BehaviourRule, remaining: ReadonlyMap<string, number>): BehaviourRule {
  const left = remaining.get(rule.id);
  return { id: rule.id, match: { ...rule.match }, behaviour: { ...rule.behaviour }, ...(left === undefined ? {} : { times: left }) };
}

/** The rules a request matches: route-only rules first, market rules after, so the more specific one wins field by field. */
function rulesMatching(rules: readonly BehaviourRule[], request: Parameters<BehaviourEngine['decide']>[0]): BehaviourRule[] {
  const matching = rules.filter((r) =>
    (r.match.route === undefined || r.match.route === request.route) &&
    (r.match.marketId === undefined || r.match.marketId === request.marketId) &&
    (r.match.method === undefined || r.match.method.toUpperCase() === request.method));
  return [...matching.filter((m) => m.match.marketId === undefined), ...matching.filter((m) => m.match.marketId !== undefined)];
}

/**
 * The one check of behaviour rules (startMarketStub's and createApp's `rules`, `serve`'s
 * `--behaviours` file and the config file's inline `rules`): an array of rules as the engine takes
 * them (checkRule, the engine's own check). Returns the first problem of each bad rule, located by
 * pointer (`/1/match/route`). Throws only what reading the value itself throws (a caller's getter).
 */
export function ruleProblems(value: unknown): ErrorFinding[] {
  if (!Array.isArray(value)) return [locatedProblem('', 'an array of rules {match, behaviour, times?, id?}', value)];
  if (value.length > MAX_RULES) return [locatedProblem('', `at most ${MAX_RULES} rules (MAX_RULES, docs/limits.md)`, undefined, `${value.length} rules`)];
  return value.flatMap((rule: unknown, i) => {
    try {
      // Labelled `rule` whatever its id (an id may hold a dot): the rule is located by its index.
      checkRule(rule as BehaviourRuleInput, () => 'r', 'rule');
      return [];
    } catch (error) {
      if (!(error instanceof BehaviourError)) throw error;
      // checkRule names a field `rule.match.route`: the path after the rule is its pointer.
      const path = (error.option ?? '').replace(/^rule/, '').split('.').filter(Boolean);
      return [locatedProblem(`/${i}${path.map((key) => `/${key}`).join('')}`, error.expected ?? 'a valid rule', undefined, error.found ?? 'nothing (missing)')];
    }
  });
}

/**
 * Checks a rule and freezes it (match and behaviour copied).
 * @param label how its fields are named: `rule ID.match.route` by default (the engine's own errors), `rule.match.route` for ruleProblems.
 * @throws BehaviourError naming the field.
 */
function checkRule(input: BehaviourRuleInput, newId: () => string, label?: string): BehaviourRule {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new BehaviourError('rule', 'an object {match, behaviour, times?, id?}', input);
  const known = ['id', 'match', 'behaviour', 'times'];
  for (const key of Object.keys(input)) if (!known.includes(key)) throw new BehaviourError(`rule.${key}`, `a known field (${known.join(', ')})`, key);
  if (input.id !== undefined && (typeof input.id !== 'string' || input.id === '' || input.id.length > 200)) throw new BehaviourError('rule.id', 'a non-empty string of at most 200 characters', input.id);
  const where = label ?? `rule${input.id ? ` ${input.id}` : ''}`;
  const match = input.match as unknown;
  if (match === null || typeof match !== 'object' || Array.isArray(match)) throw new BehaviourError(`${where}.match`, 'an object such as {"route":"item","marketId":"abc"}', match);
  const m = match as Record<string, unknown>;
  for (const key of Object.keys(m)) if (!['route', 'marketId', 'method'].includes(key)) throw new BehaviourError(`${where}.match.${key}`, 'a known field (route, marketId, method)', key);
  if (m['route'] !== undefined && m['route'] !== 'list' && m['route'] !== 'item') throw new BehaviourError(`${where}.match.route`, '"list" or "item"', m['route']);
  for (const key of ['marketId', 'method']) if (m[key] !== undefined && typeof m[key] !== 'string') throw new BehaviourError(`${where}.match.${key}`, 'a string', m[key]);
  if (input.times !== undefined && (!Number.isSafeInteger(input.times) || input.times < 1)) throw new BehaviourError(`${where}.times`, 'an integer ≥ 1', input.times);
  const behaviour = Object.freeze({ ...checkBehaviour(input.behaviour, `${where}.behaviour`) });
  return Object.freeze({ id: input.id ?? newId(), match: Object.freeze({ ...(m as RuleMatch) }), behaviour, ...(input.times === undefined ? {} : { times: input.times }) });
}

/** Merges layers field by field, lowest first: the last layer that sets a field wins; jitter adds. */
function mergeLayers(layers: readonly [string, Behaviour][], draw: (layer: string, stream: number) => number): AppliedBehaviour {
  const applied: AppliedBehaviour = { delayMs: 0, dribbleMs: 2000, labels: [] };
  for (const [layer, b] of layers) {
    const from = layer === 'global' ? '' : ` (${layer})`;
    if (b.delayMs !== undefined) {
      applied.delayMs = b.delayMs;
      if (b.delayMs > 0) applied.labels.push(`delay=${b.delayMs}${from}`);
    }
    if (b.jitterMs) {
      const extra = draw(layer, 1) % b.jitterMs;
      applied.delayMs += extra;
      applied.labels.push(`jitter=${extra}${from}`);
    }
    if (b.errorRate !== undefined) {
      const fails = draw(layer, 2) / 2 ** 32 < b.errorRate;
      if (fails) {
        applied.status = b.status ?? 500;
        applied.labels.push(`error-rate=${b.errorRate} → ${applied.status}${from}`);
      }
    } else if (b.status !== undefined) {
      applied.status = b.status;
      applied.labels.push(`status=${b.status}${from}`);
    }
    if (b.retryAfter !== undefined) applied.retryAfter = b.retryAfter;
    if (b.fault !== undefined) {
      applied.fault = b.fault;
      applied.labels.push(`fault=${b.fault}${from}`);
    }
    if (b.dribbleMs !== undefined) applied.dribbleMs = b.dribbleMs;
  }
  return applied;
}

/** Holds a response at most MAX_HOLD_MS in total: delay + jitter first, then a slow body's dribble in what is left. */
function capHold(applied: AppliedBehaviour): AppliedBehaviour {
  if (applied.delayMs > MAX_HOLD_MS) {
    applied.delayMs = MAX_HOLD_MS;
    applied.labels.push(`delay capped at ${MAX_HOLD_MS}`);
  }
  if (applied.fault === 'slow-body' && applied.delayMs + applied.dribbleMs > MAX_HOLD_MS) {
    applied.dribbleMs = MAX_HOLD_MS - applied.delayMs;
    applied.labels.push(`dribble capped at ${applied.dribbleMs}`);
  }
  return applied;
}

function hashLayer(layer: string): number {
  let h = 0;
  for (let i = 0; i < layer.length; i++) h = (Math.imul(h, 31) + layer.charCodeAt(i)) >>> 0;
  return h % 1_000_000;
}
