import { readRegularFileBytesSync } from './file-system/read-regular-file.js';
import { readJsonBytes } from './floor/bounded-json.js';
import { todayUtc } from './floor/market-rules.js';
import { checkBehaviour, ruleProblems, type Behaviour, type BehaviourRuleInput } from './behaviour/behaviour.js';
import { MarketStubError } from './floor/market-stub-error.js';
import { profileProblems, resolveProfile, type ResponseProfile } from './runtime/response-profile.js';
import { ConfigError, problem, resolveOptions, type ResolvedOptions } from './options/resolve-options.js';
import { BEHAVIOUR_OPTIONS, SERVE_OPTIONS, type ServeValues } from './options/tables/serve-options.js';
import { HOST_NAME } from './floor/host-name.js';
import { parseDeviationFlags, type DeviationSetting } from './deviation/deviation-settings.js';

/**
 * Resolved, validated options of `market-stub serve`: every option's value as resolved (`values`;
 * the rows that feed a library option pass theirs on by one loop, options/launch-options.ts) and
 * the structured values composed from several options, which the library takes as one.
 */
export interface ServeConfig {
  readonly profile: ResponseProfile;
  /** Global behaviour for every market request. */
  readonly behaviour: Behaviour;
  /** Rules read from `--behaviours FILE` or the config file's inline `rules`. */
  readonly rules: readonly BehaviourRuleInput[];
  /** Deviations from `--deviation NAME[=RATE]` (src/deviation). */
  readonly deviations: readonly DeviationSetting[];
  /** Every option's resolved value by key, the clock's computed default filled in. */
  readonly values: ServeValues & { readonly clock: string };
  /** Where each option's value came from: `--port`, `MARKET_STUB_PORT`, `default`; `rules` too. */
  readonly origins: { readonly [K in keyof ServeValues | 'rules']?: string };
}

export { ConfigError } from './options/resolve-options.js';

/** Raw values as the CLI parser saw them (strings, arrays or booleans); undefined when not given. */
export type RawFlags = Partial<Record<string, unknown>>;

/**
 * Resolves `serve` options with precedence flags > environment (MARKET_STUB_*, then plain PORT /
 * HOST for containers) > defaults, validates every value and returns a frozen config.
 * @throws ConfigError naming each bad option and its source (`--port`, `PORT`…).
 */
export function resolveServeConfig(flags: RawFlags, environment: Readonly<Record<string, string | undefined>>, now: Date = new Date()): ServeConfig {
  return composeServeConfig(resolveOptions(SERVE_OPTIONS, { flags, env: environment }), now);
}

/**
 * Builds the serve config from resolved options: the profile, the global behaviour, the domain
 * faults and the rules file, checking what spans several options (page size within the largest
 * page, --watch with --fixtures) and naming the options as they were given.
 * @throws ConfigError
 */
export function composeServeConfig(resolved: ResolvedOptions<ServeValues>, now: Date = new Date()): ServeConfig {
  const { values: v, origins } = resolved;
  const profile = serveProfile(resolved);
  const behaviour = checkBehaviour(Object.fromEntries(Object.entries(BEHAVIOUR_OPTIONS).map(([field, key]) => [field, v[key]]).filter(([, value]) => value !== undefined)));
  const rules = serveRules(resolved);
  if (v.watch && v.fixtures === undefined) throw new ConfigError(`${origins.watch} needs --fixtures PATH (there is nothing to watch for generated markets).`);
  checkHostList(given(resolved, 'allowedHosts'));
  const deviations = parseDeviations(given(resolved, 'deviation'));
  return Object.freeze({ profile, behaviour, rules: rules.value, deviations, values: Object.freeze({ ...v, clock: v.clock ?? todayUtc(now) }), origins: { ...origins, rules: rules.origin } });
}

/** The response profile, checking what spans options: an envelope key's form, the page size within the largest page. @throws ConfigError */
function serveProfile({ values: v, origins }: ResolvedOptions<ServeValues>): ResponseProfile {
  const profile = { envelope: v.envelope, paging: v.paging, pageSize: v.pageSize, maxPageSize: v.maxPageSize, errors: v.errors, filterStatus: v.filterStatus };
  // A field named as given: its flag when it has its default, else its variable or config file place.
  const nameOf = (field: keyof ResponseProfile) => (origins[field] === undefined || origins[field] === 'default' ? `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : origins[field]);
  const problems = profileProblems(profile, nameOf);
  if (problems.length > 0) throw new ConfigError(problems.map((p) => problem(nameOf(p.pointer.slice(1) as keyof ResponseProfile), p.expected, undefined, '', '', p.found)));
  return resolveProfile(profile);
}

/** The value of an option that a source gave (not a default), with its origin. */
function given(resolved: ResolvedOptions<ServeValues>, key: keyof ServeValues): { value: unknown; source: string } | undefined {
  const origin = resolved.origins[key];
  return origin === undefined || origin === 'default' ? undefined : { value: resolved.values[key], source: origin };
}

/** The host names `--allowed-hosts` gave, each a name, `.domain` or `*` (the library checks them too, naming `allowedHosts`). @throws ConfigError naming the source */
function checkHostList(g: { value: unknown; source: string } | undefined): void {
  const items = g === undefined ? [] : Array.isArray(g.value) ? (g.value as unknown[]) : [g.value];
  for (const item of items) {
    if (!HOST_NAME.test(String(item))) throw new ConfigError(`${g?.source}: expected host names such as market-stub, .ci.internal or *, found ${JSON.stringify(item)}.`);
  }
}

function parseDeviations(g: { value: unknown; source: string } | undefined): DeviationSetting[] {
  if (!g) return [];
  const items = (Array.isArray(g.value) ? g.value : [g.value]).flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean);
  try {
    return parseDeviationFlags(items, g.source);
  } catch (error) {
    if (error instanceof MarketStubError) throw new ConfigError(`${error.message}.`);
    throw error;
  }
}


/**
 * The behaviour rules: a `--behaviours` file given by flag or environment wins; otherwise the
 * config file's inline `rules`, or its `behaviours` file (not both in one file).
 */
function serveRules(resolved: ResolvedOptions<ServeValues>): { value: BehaviourRuleInput[]; origin: string } {
  const file = given(resolved, 'behaviours');
  const config = resolved.config;
  const inline = config?.values['rules'];
  if (inline === undefined || (file && file.source !== config?.origin('behaviours'))) return { value: readRules(file), origin: file?.source ?? 'default' };
  const origin = config?.origin('rules') ?? 'rules';
  if (file) throw new ConfigError(`${origin}: give the rules inline or as a file (${file.source}), not both.`);
  if (!Array.isArray(inline)) throw new ConfigError(`${origin}: expected an array of rules, found ${JSON.stringify(inline)}.`);
  checkRules(inline, (i) => `${origin}/${i}`);
  return { value: inline as BehaviourRuleInput[], origin };
}

function readRules(g: { value: unknown; source: string } | undefined): BehaviourRuleInput[] {
  if (!g) return [];
  const file = String(g.value);
  let data: unknown;
  try {
    data = readJsonBytes(readRegularFileBytesSync(file, 4 * 1024 * 1024));
  } catch (error) {
    throw new ConfigError(`${g.source}: cannot read behaviour rules from ${file} (${(error as Error).message}).`);
  }
  if (!Array.isArray(data)) throw new ConfigError(`${g.source}: ${file} must hold a JSON array of rules, found ${typeof data}.`);
  checkRules(data, (i) => `${g.source}: ${file} /${i}`);
  return data as BehaviourRuleInput[];
}

/**
 * Checks the rules as the behaviour engine will (ruleProblems: match, behaviour, times, id).
 * @throws ConfigError listing each bad rule, named with `at(i)` and the field: `FILE /1: match.route: expected …, found …`.
 */
function checkRules(data: readonly unknown[], at: (i: number) => string): void {
  const problems = ruleProblems(data);
  if (problems.length === 0) return;
  throw new ConfigError(problems.map((p) => {
    const [, index = '', ...field] = p.pointer.split('/');
    const option = at(Number(index));
    return { option, pointer: p.pointer, expected: p.expected, found: p.found, message: `${option}: ${field.length > 0 ? `${field.join('.')}: ` : ''}expected ${p.expected}, found ${p.found}.` };
  }));
}
