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

/**
 * Completes and checks a partial profile.
 * @throws RangeError naming the field when a value is out of range (a key that is not a JSON-safe identifier, a page size < 1).
 */
export function resolveProfile(partial: Partial<ResponseProfile> = {}): ResponseProfile {
  const profile = { ...DEFAULT_PROFILE, ...stripUndefined(partial) };
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(profile.envelope)) throw new RangeError(`envelope: expected "bare" or a key such as "markets", found ${JSON.stringify(profile.envelope)}`);
  if (!PAGING_MODES.includes(profile.paging)) throw new RangeError(`paging: expected one of ${PAGING_MODES.join(', ')}, found ${JSON.stringify(profile.paging)}`);
  if (!ERROR_SHAPES.includes(profile.errors)) throw new RangeError(`errors: expected one of ${ERROR_SHAPES.join(', ')}, found ${JSON.stringify(profile.errors)}`);
  if (!Number.isSafeInteger(profile.maxPageSize) || profile.maxPageSize < 1) throw new RangeError(`maxPageSize: expected an integer ≥ 1, found ${profile.maxPageSize}`);
  if (!Number.isSafeInteger(profile.pageSize) || profile.pageSize < 1 || profile.pageSize > profile.maxPageSize) throw new RangeError(`pageSize: expected an integer from 1 to maxPageSize (${profile.maxPageSize}), found ${profile.pageSize}`);
  return Object.freeze(profile);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
