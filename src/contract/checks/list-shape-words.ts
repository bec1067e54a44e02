// How a list's shape is told in a report: the same words for check, record and proxy.
import { ENVELOPE_TITLES, type ListShape } from '../paging/index.js';
import type { ListSummary } from './contract-report.js';

/** What reads the market of each item of a wrapped list, in words. */
const WRAPPER_WORDS: Readonly<Record<string, string>> = {
  '/attributes': 'each resource\'s attributes read as the market',
  '/properties': 'each entity\'s properties read as the market',
};

/**
 * The shape of a list in words, for the `list-shape` information: `a bare JSON array`, or
 * `an envelope: the array under "data.markets" (GraphQL; other keys: errors)`, naming the
 * standard wrapper (list-envelope.ts, EnvelopeName) and how its items are read.
 */
export function shapeWords(shape: ListShape): string {
  if (shape.kind === 'array') return 'a bare JSON array';
  const notes: string[] = [];
  if (shape.envelope !== 'keyed' && shape.envelope !== 'only-array') notes.push(ENVELOPE_TITLES[shape.envelope]);
  const wrapper = WRAPPER_WORDS[shape.itemPointer];
  if (wrapper !== undefined) notes.push(wrapper);
  if (shape.otherKeys.length > 0) notes.push(`other keys: ${shape.otherKeys.join(', ')}`);
  return `an envelope: the array under ${JSON.stringify(shape.key)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/** Notes the shape of the first list page read in the report's list summary (`shape`, `envelopeKey`, `envelope`). */
export function noteListShape(list: ListSummary, shape: ListShape): void {
  list.shape = shape.kind;
  if (shape.kind === 'array') return;
  list.envelopeKey = shape.key;
  list.envelope = shape.envelope;
}

/** `bare array`, `envelope "data.markets" (GraphQL)`, `envelope "markets"` or `no market list`: the list line of the text and HTML reports. */
export function listShapeLabel(list: ListSummary): string {
  if (list.shape === 'array') return 'bare array';
  if (list.shape === 'unavailable') return 'no market list';
  const title = list.envelope === undefined ? undefined : (ENVELOPE_TITLES as Readonly<Record<string, string>>)[list.envelope];
  const named = title === undefined || list.envelope === 'keyed' || list.envelope === 'only-array' ? '' : ` (${title})`;
  return `envelope "${list.envelopeKey ?? ''}"${named}`;
}
