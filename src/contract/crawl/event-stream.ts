import { describeFound } from '../../schema/finding.js';

/**
 * An event stream (server-sent events, `text/event-stream`, HTML Living Standard §9.2) where a
 * JSON list was expected: recognised from its media type, or from its first bytes (a field line
 * `data:`, `event:`, `id:`, `retry:` or a `:` comment, none of which can start JSON text), so the
 * check names it at once instead of reading an endless body until --timeout-ms.
 */

/** True when the media type is `text/event-stream`. */
export function isEventStreamType(contentType: string | undefined): boolean {
  return (contentType?.split(';')[0] ?? '').trim().toLowerCase() === 'text/event-stream';
}

/** True when the first characters of a body (a BOM and leading blank lines aside) are an event-stream field line or comment. */
export function startsLikeEventStream(head: string): boolean {
  return /^\uFEFF?(?:\r?\n)*(?:data|event|id|retry):|^\uFEFF?(?:\r?\n)*:/.test(head);
}

/** `an event stream (text/event-stream), first bytes "data: {…"`: what the finding says was found. */
export function describeEventStream(contentType: string | undefined, head: string): string {
  const served = isEventStreamType(contentType) ? 'text/event-stream' : `served as ${contentType ?? 'no Content-Type'}`;
  const first = head === '' ? 'no byte yet' : `first bytes ${describeFound(head.slice(0, 40), 44)}`;
  return `an event stream (server-sent events, ${served}), ${first}; not read further`;
}
