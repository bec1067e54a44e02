// Partial-failure signals of a list answer (docs/contract-check.md, "List envelopes"): an `errors`
// array beside the market list, and `null` where a market should be. GraphQL sends both when part
// of a query fails (GraphQL spec, "Response Format" and "Handling Execution Errors"); JSON:API
// keeps `errors` out of a document with `data` (JSON:API 1.1 §7.1), so there it is a signal too.
import { LIST_ENDPOINT, type Observation } from './contract-finding.js';
import { ENVELOPE_TITLES, type ListShape } from '../paging/index.js';

/** Errors of an `errors` array shown in a finding, at most. */
const MAX_ERROR_SAMPLES = 3;
/** Characters of one error's message shown, at most. */
const MAX_ERROR_CHARS = 120;

/** The top-level `errors` array of a list answer as it streamed: how many items, and the first few messages. */
export class ErrorsSeen {
  count = 0;
  readonly samples: string[] = [];

  /** Notes one item of the array: its `message` (GraphQL), `detail` or `title` (JSON:API, RFC 9457), else its JSON text. */
  note(item: unknown): void {
    this.count++;
    if (this.samples.length < MAX_ERROR_SAMPLES) this.samples.push(errorText(item));
  }

  /** `2 errors ("Price feed down"; "Timeout")`. */
  describe(): string {
    const more = this.count > this.samples.length ? `; ${this.count - this.samples.length} more` : '';
    return `${this.count} error${this.count === 1 ? '' : 's'} (${this.samples.join('; ')}${more})`;
  }
}

function errorText(item: unknown): string {
  const record = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : undefined;
  const message = record ? [record['message'], record['detail'], record['title']].find((v) => typeof v === 'string') : undefined;
  const text = typeof message === 'string' ? JSON.stringify(message) : (JSON.stringify(item) ?? String(item));
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

/**
 * The warning for an answer carrying a non-empty `errors` array beside its market list: the list
 * may lack what failed. Pointer `/errors`; the found text names the envelope and the first errors.
 */
export function errorsBesideList(errors: ErrorsSeen, shape: ListShape & { kind: 'envelope' }, request: string): Observation {
  const where = `beside the market list under ${JSON.stringify(shape.key)}${shape.envelope === 'keyed' || shape.envelope === 'only-array' ? '' : ` (${ENVELOPE_TITLES[shape.envelope]})`}`;
  return {
    severity: 'warning', code: 'partial-failure', endpoint: LIST_ENDPOINT, pointerTemplate: '/errors',
    expected: 'a list answer without errors (errors beside data mean part of the answer failed: GraphQL spec, "Response Format")',
    example: { pointer: '/errors', found: `${errors.describe()} ${where}: the list may lack the markets that failed`, request },
  };
}

/** The error for a `null` item of the market array: a market the deployment could not produce (GraphQL answers `null` for an item whose field failed). */
export function nullItem(at: string, template: string, request: string): Observation {
  return {
    severity: 'error', code: 'partial-failure', endpoint: LIST_ENDPOINT, pointerTemplate: template,
    expected: 'a market at every place in the list',
    example: { pointer: at, found: 'null in place of a market: a partial failure (the deployment could not produce this item)', request },
  };
}

/** What a GraphQL answer without a market list says: `data` null or without an array, and its errors. */
export function graphqlWithoutList(body: Record<string, unknown>, errors: ErrorsSeen): string {
  const data = body['data'] === null ? 'data is null' : Object.hasOwn(body, 'data') ? 'data holds no array of markets' : 'no data';
  return `a GraphQL answer without a market list: ${data}${errors.count > 0 ? `; ${errors.describe()}` : ''}`;
}
