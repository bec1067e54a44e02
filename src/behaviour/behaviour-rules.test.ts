import { describe, expect, it } from 'vitest';
import { MAX_HOLD_MS } from '../floor/limits.js';
import { refusal as refused } from '../../test/support/refusal.js';
import { BehaviourError, checkBehaviour, createBehaviourEngine, parsePrefer, type Behaviour, type BehaviourRuleInput } from './behaviour.js';

// The behaviour engine as its callers use it (the runtime's decide stage, /__stub/behaviours, the
// Prefer header): which requests a rule reaches, which layer wins, what the journal labels say, and
// where each knob's range ends.

const list = { route: 'list', method: 'GET' } as const;
const item = (marketId: string, method = 'GET') => ({ route: 'item', marketId, method }) as const;
const engine = (global?: Behaviour, rules?: BehaviourRuleInput[], seed = 7) =>
  createBehaviourEngine({ seed, ...(global ? { global } : {}), ...(rules ? { rules } : {}) });

const refusal = (run: () => unknown) => refused(run, BehaviourError);

describe('checkBehaviour: each knob up to its documented bound, not past it', () => {
  const bounds: [keyof Behaviour, number, number, string][] = [
    ['delayMs', 0, MAX_HOLD_MS, 'an integer'],
    ['jitterMs', 0, MAX_HOLD_MS, 'an integer'],
    ['status', 200, 599, 'an integer'],
    ['retryAfter', 0, 86_400, 'an integer'],
    ['dribbleMs', 0, MAX_HOLD_MS, 'an integer'],
  ];
  it.each(bounds)('%s takes %i and %i, refuses one past either end and fractions', (key, min, max, kind) => {
    expect(checkBehaviour({ [key]: min })).toEqual({ [key]: min });
    expect(checkBehaviour({ [key]: max })).toEqual({ [key]: max });
    for (const bad of [min - 1, max + 1, min + 0.5, Number.NaN, Number.POSITIVE_INFINITY, '5']) {
      const error = refusal(() => checkBehaviour({ [key]: bad }));
      expect(error.option).toBe(`behaviour.${key}`);
      expect(error.message).toMatch(new RegExp(`^behaviour\\.${key}: expected ${kind} from ${min} to ${max}, found `));
    }
  });

  it('errorRate is a share: any number from 0 to 1, fractions included', () => {
    for (const share of [0, 0.25, 1]) expect(checkBehaviour({ errorRate: share })).toEqual({ errorRate: share });
    for (const bad of [-0.01, 1.01, Number.NaN]) {
      expect(refusal(() => checkBehaviour({ errorRate: bad })).message).toMatch(/^behaviour\.errorRate: expected a number from 0 to 1, found /);
    }
  });

  it('names the start-up global behaviour and a missing rule without a "found"', () => {
    expect(() => engine({ delayMs: -1 })).toThrow('global.delayMs: expected an integer from 0 to 600000, found -1');
    expect(refusal(() => engine().addRule(undefined as unknown as BehaviourRuleInput)).message).toBe('rule: expected an object {match, behaviour, times?, id?}');
  });

  it('names the surface that gave the behaviour, the first bad field and what was found', () => {
    const error = refusal(() => checkBehaviour({ status: 101 }, 'Prefer'));
    expect(error.message).toBe('Prefer.status: expected an integer from 200 to 599, found 101');
    expect(error.code).toBe('OPTION_INVALID');
  });

  it('refuses what is not an object, an unknown field and an unknown fault', () => {
    for (const bad of [null, [], 'slow', 3]) expect(refusal(() => checkBehaviour(bad, 'global')).message).toMatch(/^global: expected an object/);
    expect(refusal(() => checkBehaviour({ delay: 5 })).message).toBe('behaviour.delay: expected a known field (delayMs, jitterMs, status, retryAfter, errorRate, fault, dribbleMs), found "delay"');
    expect(refusal(() => checkBehaviour({ fault: 'explode' })).message).toBe('behaviour.fault: expected one of reset, truncate, malformed, slow-body, found "explode"');
    for (const fault of ['reset', 'truncate', 'malformed', 'slow-body']) expect(checkBehaviour({ fault })).toEqual({ fault });
  });
});

describe('parsePrefer: RFC 7240 preferences as a behaviour', () => {
  it('reads every preference it knows, whatever the case, quotes or parameters', () => {
    expect(parsePrefer('code=503, delay=250, jitter=10, retry-after=5, error-rate=0.25, fault="slow-body", dribble=100'))
      .toEqual({ status: 503, delayMs: 250, jitterMs: 10, retryAfter: 5, errorRate: 0.25, fault: 'slow-body', dribbleMs: 100 });
    expect(parsePrefer(' CODE = 429 ;foo=bar')).toEqual({ status: 429 });
    expect(parsePrefer('fault = reset')).toEqual({ fault: 'reset' });
  });

  it('ignores what it does not know (RFC 7240 §2) and an absent or empty header', () => {
    expect(parsePrefer(undefined)).toBeUndefined();
    expect(parsePrefer('')).toBeUndefined();
    expect(parsePrefer('respond-async, wait=10, return=minimal')).toBeUndefined();
    expect(parsePrefer('respond-async, delay=20')).toEqual({ delayMs: 20 });
  });

  it('refuses a known preference with a bad or missing value, naming Prefer and the field', () => {
    expect(refusal(() => parsePrefer('code=101')).message).toBe('Prefer.status: expected an integer from 200 to 599, found 101');
    expect(refusal(() => parsePrefer('delay=')).message).toMatch(/^Prefer\.delayMs: expected an integer from 0 to 600000, found /);
    expect(refusal(() => parsePrefer('code')).option).toBe('Prefer.status');
    // A value may itself hold `=`: it is kept whole, and refused whole.
    expect(refusal(() => parsePrefer('fault=a=b')).message).toBe('Prefer.fault: expected one of reset, truncate, malformed, slow-body, found "a=b"');
    // Only quotes around the whole value are taken off: a quote inside it is refused as sent.
    expect(refusal(() => parsePrefer('fault="reset"x')).found).toBe('"\\"reset\\"x"');
    expect(refusal(() => parsePrefer('fault=x"reset"')).found).toBe('"x\\"reset\\""');
  });
});

describe('decide: which rules reach a request', () => {
  it('nothing configured: no delay, no status, the default dribble, no labels', () => {
    expect(engine().decide(list)).toEqual({ delayMs: 0, dribbleMs: 2000, labels: [] });
  });

  it('nothing configured but a Prefer header: the preference applies', () => {
    expect(engine().decide(list, { status: 503 })).toEqual({ delayMs: 0, dribbleMs: 2000, status: 503, labels: ['status=503 (Prefer)'] });
  });

  it('a route rule reaches its route only; a market rule that market only; a method rule that method only', () => {
    const e = engine(undefined, [
      { id: 'lists', match: { route: 'list' }, behaviour: { status: 503 } },
      { id: 'one', match: { marketId: 'm-1' }, behaviour: { status: 502 } },
      { id: 'heads', match: { route: 'item', method: 'head' }, behaviour: { status: 504 } },
    ]);
    expect(e.decide(list)).toMatchObject({ status: 503, labels: ['status=503 (rule lists)'] });
    expect(e.decide(item('m-1'))).toMatchObject({ status: 502, labels: ['status=502 (rule one)'] });
    expect(e.decide(item('m-2')).status).toBeUndefined();
    expect(e.decide(item('m-2', 'HEAD'))).toMatchObject({ status: 504, labels: ['status=504 (rule heads)'] });
  });

  it('global < route rule < market rule < Prefer, field by field, whatever order the rules came in', () => {
    const e = engine({ delayMs: 10, status: 201 }, [
      { id: 'market', match: { marketId: 'm-1' }, behaviour: { status: 502 } },
      { id: 'route', match: { route: 'item' }, behaviour: { status: 503, retryAfter: 9 } },
    ]);
    const applied = e.decide(item('m-1'));
    expect(applied).toMatchObject({ delayMs: 10, status: 502, retryAfter: 9 });
    expect(applied.labels).toEqual(['delay=10', 'status=201', 'status=503 (rule route)', 'status=502 (rule market)']);
    const preferred = e.decide(item('m-1'), { status: 429, delayMs: 0 });
    expect(preferred).toMatchObject({ delayMs: 0, status: 429 });
    expect(preferred.labels.at(-1)).toBe('status=429 (Prefer)');
    // A zero delay sets the delay but is not worth a label.
    expect(preferred.labels.filter((l) => l.startsWith('delay'))).toEqual(['delay=10']);
  });

  it('carries retry-after, the fault and the dribble time of the winning layers', () => {
    const applied = engine({ fault: 'truncate', dribbleMs: 300, retryAfter: 4 }).decide(list, { fault: 'slow-body' });
    expect(applied).toMatchObject({ fault: 'slow-body', dribbleMs: 300, retryAfter: 4, delayMs: 0 });
    expect(applied.labels).toEqual(['fault=truncate', 'fault=slow-body (Prefer)']);
  });
});

describe('decide: seeded jitter and error rate', () => {
  it('jitter adds a seeded delay below jitterMs to the fixed delay, the same on every run', () => {
    const run = (seed: number) => {
      const e = engine({ delayMs: 100, jitterMs: 50 }, undefined, seed);
      return Array.from({ length: 40 }, () => e.decide(list));
    };
    const first = run(3);
    for (const applied of first) {
      const extra = applied.delayMs - 100;
      expect(extra).toBeGreaterThanOrEqual(0);
      expect(extra).toBeLessThan(50);
      expect(applied.labels).toEqual(['delay=100', `jitter=${extra}`]);
    }
    expect(new Set(first.map((a) => a.delayMs)).size).toBeGreaterThan(10);
    expect(run(3)).toEqual(first);
    expect(run(4).map((a) => a.delayMs)).not.toEqual(first.map((a) => a.delayMs));
  });

  it('each layer draws its own jitter: a rule and a Prefer header do not repeat the global draw', () => {
    const e = engine({ jitterMs: MAX_HOLD_MS }, [{ match: {}, behaviour: { jitterMs: MAX_HOLD_MS } }]);
    const extras = e.decide(list, { jitterMs: MAX_HOLD_MS }).labels.flatMap((l) => /^jitter=(\d+)/.exec(l)?.[1] ?? []);
    expect(extras).toHaveLength(3);
    expect(new Set(extras).size).toBe(3);
  });

  it('an error rate fails that share of requests with its status (500 by default), the same ones on every run', () => {
    const fails = (rate: number, status?: number) => {
      const e = engine({ errorRate: rate, ...(status === undefined ? {} : { status }) }, undefined, 11);
      return Array.from({ length: 1000 }, () => e.decide(list));
    };
    expect(fails(0).every((a) => a.status === undefined && a.labels.length === 0)).toBe(true);
    const all = fails(1);
    expect(all.every((a) => a.status === 500 && a.labels[0] === 'error-rate=1 → 500')).toBe(true);
    const half = fails(0.5, 503).filter((a) => a.status !== undefined);
    expect(half.length).toBeGreaterThan(430);
    expect(half.length).toBeLessThan(570);
    expect(half[0]?.status).toBe(503);
    expect(fails(0.5, 503).map((a) => a.status)).toEqual(fails(0.5, 503).map((a) => a.status));
  });
});

describe('decide: the hold is capped at MAX_HOLD_MS in total', () => {
  it('a delay of exactly MAX_HOLD_MS is kept as it is; past it, delay plus jitter is capped and labelled', () => {
    expect(engine({ delayMs: MAX_HOLD_MS }).decide(list).labels).toEqual([`delay=${MAX_HOLD_MS}`]);
    const capped = engine({ delayMs: MAX_HOLD_MS, jitterMs: 1000 }, undefined, 1).decide(list, { jitterMs: 1000 });
    expect(capped.delayMs).toBe(MAX_HOLD_MS);
    expect(capped.labels.at(-1)).toBe(`delay capped at ${MAX_HOLD_MS}`);
  });

  it('a slow body gets what is left of the hold after the delay; exactly the whole hold is not cut', () => {
    const full = engine({ delayMs: MAX_HOLD_MS - 2000, fault: 'slow-body', dribbleMs: 2000 }).decide(list);
    expect(full.dribbleMs).toBe(2000);
    expect(full.labels.some((l) => l.includes('capped'))).toBe(false);
    const cut = engine({ delayMs: MAX_HOLD_MS - 500, fault: 'slow-body', dribbleMs: 2000 }).decide(list);
    expect(cut.dribbleMs).toBe(500);
    expect(cut.labels.at(-1)).toBe('dribble capped at 500');
    // Other faults do not dribble: their dribble time is not touched.
    expect(engine({ delayMs: MAX_HOLD_MS, fault: 'truncate', dribbleMs: 2000 }).decide(list).dribbleMs).toBe(2000);
  });
});

describe('rules: ids, counts, replacement, removal and reset', () => {
  it('numbers rules without an id r1, r2…; an id given again replaces that rule', () => {
    const e = engine();
    expect(e.addRule({ match: {}, behaviour: { delayMs: 1 } }).id).toBe('r1');
    expect(e.addRule({ match: {}, behaviour: { delayMs: 2 } }).id).toBe('r2');
    e.addRule({ id: 'r1', match: { route: 'list' }, behaviour: { delayMs: 3 } });
    expect(e.rules().map((r) => [r.id, r.behaviour.delayMs])).toEqual([['r2', 2], ['r1', 3]]);
  });

  it('a times rule applies that many times, reads back what is left, then disappears', () => {
    const e = engine(undefined, [{ id: 'twice', match: { route: 'list' }, behaviour: { status: 503 }, times: 2 }]);
    expect(e.decide(list).status).toBe(503);
    expect(e.rules()).toEqual([{ id: 'twice', match: { route: 'list' }, behaviour: { status: 503 }, times: 1 }]);
    expect(e.decide(item('m-1')).status).toBeUndefined();
    expect(e.decide(list).status).toBe(503);
    expect(e.rules()).toEqual([]);
    expect(e.decide(list).status).toBeUndefined();
    // Replaced by a rule without times: it stays until removed.
    e.addRule({ id: 'twice', match: {}, behaviour: { status: 502 }, times: 1 });
    e.addRule({ id: 'twice', match: {}, behaviour: { status: 502 } });
    for (let i = 0; i < 3; i++) expect(e.decide(list).status).toBe(502);
    expect(e.rules()[0]).not.toHaveProperty('times');
  });

  it('a times rule running out removes itself only', () => {
    const e = engine(undefined, [{ id: 'once', match: { route: 'list' }, behaviour: { status: 503 }, times: 1 }, { id: 'always', match: {}, behaviour: { delayMs: 5 } }]);
    expect(e.decide(list)).toMatchObject({ status: 503, delayMs: 5 });
    expect(e.rules().map((r) => r.id)).toEqual(['always']);
    expect(e.decide(list)).toMatchObject({ delayMs: 5 });
  });

  it('removeRule says whether a rule was removed', () => {
    const e = engine(undefined, [{ id: 'a', match: {}, behaviour: { status: 503 } }]);
    expect(e.removeRule('b')).toBe(false);
    expect(e.removeRule('a')).toBe(true);
    expect(e.decide(list).status).toBeUndefined();
    expect(e.removeRule('a')).toBe(false);
  });

  it('setGlobal checks and replaces the global behaviour; an empty one applies nothing', () => {
    const e = engine({ delayMs: 5 });
    expect(() => e.setGlobal({ delayMs: -1 })).toThrow('global.delayMs: expected an integer from 0 to 600000, found -1');
    e.setGlobal({ status: 503 });
    expect(e.global()).toEqual({ status: 503 });
    expect(e.decide(list)).toMatchObject({ status: 503, delayMs: 0 });
    e.setGlobal({});
    expect(e.decide(list)).toEqual({ delayMs: 0, dribbleMs: 2000, labels: [] });
  });

  it('reset brings back the start-up global, the start-up rules with their full counts, and the seeded draws', () => {
    const e = engine({ jitterMs: 1000 }, [{ id: 'once', match: {}, behaviour: { status: 503 }, times: 1 }]);
    const first = e.decide(list);
    e.setGlobal({});
    e.addRule({ id: 'extra', match: {}, behaviour: { delayMs: 9 } });
    e.reset();
    expect(e.global()).toEqual({ jitterMs: 1000 });
    expect(e.rules()).toEqual([{ id: 'once', match: {}, behaviour: { status: 503 }, times: 1 }]);
    expect(e.decide(list)).toEqual(first);
    // An empty start-up global stays empty after reset.
    const bare = engine();
    bare.setGlobal({ status: 500 });
    bare.reset();
    expect(bare.decide(list)).toEqual({ delayMs: 0, dribbleMs: 2000, labels: [] });
  });
});

describe('reset without rules', () => {
  it('a start-up global alone applies again after reset', () => {
    const globalOnly = engine({ status: 503 });
    globalOnly.setGlobal({});
    globalOnly.reset();
    expect(globalOnly.decide(list)).toMatchObject({ status: 503, labels: ['status=503'] });
  });
});

describe('rules: a bad rule is refused naming its field', () => {
  const refused: [string, unknown, string][] = [
    ['not an object', null, 'rule: expected an object {match, behaviour, times?, id?}'],
    ['an unknown field', { match: {}, behaviour: {}, when: 1 }, 'rule.when: expected a known field (id, match, behaviour, times), found "when"'],
    ['an empty id', { id: '', match: {}, behaviour: {} }, 'rule.id: expected a non-empty string of at most 200 characters, found ""'],
    ['an id of 201 characters', { id: 'x'.repeat(201), match: {}, behaviour: {} }, 'rule.id: expected a non-empty string of at most 200 characters'],
    ['a numeric id', { id: 7, match: {}, behaviour: {} }, 'rule.id: expected a non-empty string of at most 200 characters, found 7'],
    ['no match', { id: 'a', behaviour: {} }, 'rule a.match: expected an object such as {"route":"item","marketId":"abc"}'],
    ['a match array', { id: 'a', match: [], behaviour: {} }, 'rule a.match: expected an object'],
    ['an unknown match field', { match: { path: '/x' }, behaviour: {} }, 'rule.match.path: expected a known field (route, marketId, method), found "path"'],
    ['an unknown route', { match: { route: 'admin' }, behaviour: {} }, 'rule.match.route: expected "list" or "item", found "admin"'],
    ['a numeric marketId', { match: { marketId: 5 }, behaviour: {} }, 'rule.match.marketId: expected a string, found 5'],
    ['a numeric method', { match: { method: 1 }, behaviour: {} }, 'rule.match.method: expected a string, found 1'],
    ['times 0', { match: {}, behaviour: {}, times: 0 }, 'rule.times: expected an integer ≥ 1, found 0'],
    ['fractional times', { match: {}, behaviour: {}, times: 1.5 }, 'rule.times: expected an integer ≥ 1, found 1.5'],
    ['a bad behaviour', { id: 'b', match: {}, behaviour: { status: 700 } }, 'rule b.behaviour.status: expected an integer from 200 to 599, found 700'],
  ];
  it.each(refused)('%s', (_, rule, message) => {
    expect(() => engine().addRule(rule as BehaviourRuleInput)).toThrow(message);
  });

  it('takes an id of exactly 200 characters, times 1 and every documented match field', () => {
    const rule = engine().addRule({ id: 'x'.repeat(200), match: { route: 'item', marketId: 'm', method: 'GET' }, behaviour: {}, times: 1 });
    expect(rule).toEqual({ id: 'x'.repeat(200), match: { route: 'item', marketId: 'm', method: 'GET' }, behaviour: {}, times: 1 });
  });
});
