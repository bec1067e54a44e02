/**
 * The W3C Trace Context `traceparent` request header (W3C Trace Context Level 1, §3.2), read so a
 * journal entry names the trace of the code under test that sent it.
 */
export interface TraceParent {
  /** 32 lower-case hex digits, not all zero (§3.2.2.3). */
  traceId: string;
  /** The caller's span: 16 lower-case hex digits, not all zero (§3.2.2.4). */
  parentId: string;
  /** The `sampled` bit of trace-flags (§3.2.2.5.1). */
  sampled: boolean;
}

const HEX_LC = /^[0-9a-f]+$/;
const ALL_ZERO = /^0+$/;

/**
 * A `traceparent` value read by §3.2.2 (version-format `version-traceid-parentid-flags`, two, 32,
 * 16 and two lower-case hex digits), or undefined when it is malformed: version `ff`, a version-00
 * value longer than 55 characters, a later version not followed by `-` after the flags, upper-case
 * hex, an all-zero trace-id or parent-id, or several values joined into one (§3.2: more than one
 * `traceparent` header is invalid).
 */
export function readTraceparent(value: string | readonly string[] | undefined): TraceParent | undefined {
  if (typeof value !== 'string' || value.length < 55) return undefined;
  const version = value.slice(0, 2);
  if (!HEX_LC.test(version) || version === 'ff') return undefined;
  if (version === '00' ? value.length !== 55 : value.length > 55 && value[55] !== '-') return undefined;
  if (value[2] !== '-' || value[35] !== '-' || value[52] !== '-') return undefined;
  const traceId = value.slice(3, 35);
  const parentId = value.slice(36, 52);
  const flags = value.slice(53, 55);
  if (!HEX_LC.test(traceId) || !HEX_LC.test(parentId) || !HEX_LC.test(flags) || ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return undefined;
  return { traceId, parentId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/**
 * A trace id as a journal filter takes it: 32 hex digits (upper case read as lower), or a whole
 * `traceparent` value, whose trace-id it names; undefined when it is neither.
 */
export function traceIdOf(value: string): string | undefined {
  const lower = value.trim().toLowerCase();
  if (lower.length === 32 && HEX_LC.test(lower) && !ALL_ZERO.test(lower)) return lower;
  return readTraceparent(lower)?.traceId;
}
