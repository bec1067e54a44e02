import { locatedProblem, problemsError, type ErrorFinding } from '../floor/market-stub-error.js';
import { BOOLEAN, choice, int, readTyped, TEXT, type OptionKind } from '../floor/option-kind.js';

/**
 * Response profiles: choices for what the service leaves undocumented (envelopes, paging, error shapes: real deployments differ on each). The
 * defaults reproduce the plain behaviour: a bare array, no paging, the stub's own error shape.
 */
export interface ResponseProfile {
  /** `bare` (default) sends the list as a JSON array; any other value is the envelope key (`markets`, `data`…). */
  envelope: string;
  /** `none` (default); `offset` reads `limit`/`offset`; `cursor` reads `limit`/`cursor` (opaque). */
  paging: 'none' | 'offset' | 'cursor';
  /** Page size when the client sends no `limit`. */
  pageSize: number;
  /** Largest `limit` accepted; larger values are clamped to it (as Kalshi and Manifold do). */
  maxPageSize: number;
  /** Error body shape: `default` `{status,error,message,…}`, `problem` RFC 9457, `error-object` `{"error":{code,message}}`. */
  errors: 'default' | 'problem' | 'error-object';
  /** Filter the list by `?status=` when asked. Off by default (the plain service ignores queries). */
  filterStatus: boolean;
}

const DEFAULT_PROFILE: Readonly<ResponseProfile> = Object.freeze({
  envelope: 'bare',
  paging: 'none',
  pageSize: 100,
  maxPageSize: 1000,
  errors: 'default',
  filterStatus: false,
});

/** Error body shapes, with the media type each is sent with. */
export const ERROR_SHAPES = ['default', 'problem', 'error-object'] as const;
export const PAGING_MODES = ['none', 'offset', 'cursor'] as const;

/** Largest page size and largest `limit`. */
const MAX_PAGE = 1_000_000;

/** The kind of each profile field: one table for the library check, the CLI rows (options/tables/serve-options.ts) and the config file's schema. */
export const PROFILE_FIELDS = {
  envelope: TEXT,
  paging: choice(...PAGING_MODES),
  pageSize: int(1, MAX_PAGE),
  maxPageSize: int(1, MAX_PAGE),
  errors: choice(...ERROR_SHAPES),
  filterStatus: BOOLEAN,
} as const satisfies Record<keyof ResponseProfile, OptionKind>;

/** An envelope key: a JSON-safe identifier of at most 64 characters. */
const ENVELOPE_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * The one check of a response profile (startMarketStub's `profile`, the handlers', `serve`'s
 * profile flags): an object of known fields, each of its kind, an envelope key of letters, digits
 * and `_`, a page size within the largest page. Returns every problem, located by pointer
 * (`/pageSize`); `nameOf` names a field the way the surface spells it (`profile.maxPageSize`,
 * `--max-page-size`), for a problem that involves two fields. Never throws.
 */
export function profileProblems(value: unknown, nameOf: (field: keyof ResponseProfile) => string = (field) => field): ErrorFinding[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [locatedProblem('', 'an object such as {"envelope":"markets","paging":"cursor"}', value)];
  const profile = value as Record<string, unknown>;
  const problems: ErrorFinding[] = [];
  for (const [key, field] of Object.entries(profile)) {
    const kind = (PROFILE_FIELDS as Record<string, OptionKind>)[key];
    const read = kind === undefined ? { ok: false as const, expected: `a known field (${Object.keys(PROFILE_FIELDS).join(', ')})` } : field === undefined ? { ok: true as const } : readTyped(kind, field);
    if (!read.ok) problems.push(locatedProblem(`/${key}`, read.expected, kind === undefined ? key : field));
  }
  const envelope = profile['envelope'];
  if (typeof envelope === 'string' && envelope.trim() !== '' && !ENVELOPE_KEY.test(envelope)) problems.push(locatedProblem('/envelope', '"bare" or a key such as "markets" (letters, digits, _; at most 64)', envelope));
  const pageSize = typeof profile['pageSize'] === 'number' ? profile['pageSize'] : DEFAULT_PROFILE.pageSize;
  const maxPageSize = typeof profile['maxPageSize'] === 'number' ? profile['maxPageSize'] : DEFAULT_PROFILE.maxPageSize;
  if (problems.length === 0 && pageSize > maxPageSize) problems.push(locatedProblem('/pageSize', `an integer from 1 to ${nameOf('maxPageSize')} (${maxPageSize})`, pageSize));
  return problems;
}

/**
 * Completes and checks a partial profile (profileProblems).
 * @throws MarketStubError OPTION_INVALID (where `profile`) naming the first bad field, every problem in `findings`.
 */
export function resolveProfile(partial: Partial<ResponseProfile> = {}): ResponseProfile {
  const problems = profileProblems(partial);
  if (problems.length > 0) throw problemsError('profile', 'profile', problems);
  return Object.freeze({ ...DEFAULT_PROFILE, ...stripUndefined(partial) });
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
