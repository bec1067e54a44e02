import type { LocatedProblem } from '../floor/located-problem.js';

/**
 * A finding: one way a document departs from the contract or from our assumptions.
 * Validators return findings as values; the edge (CLI, HTTP) decides what they cost.
 */
export interface Finding extends LocatedProblem {
  /** `error`: documented contract broken; `warning`: one of our assumptions broken; `info`: worth knowing. */
  severity: 'error' | 'warning' | 'info';
  /** Stable machine-readable name, e.g. `type`, `required`, `format`, `duplicate-id`, `price-sum`. */
  code: string;
  /** RFC 6901 JSON pointer into the document the finding is about ('' is the whole document). */
  pointer: string;
  /** What the contract or assumption expects, in words (`number`, `a YYYY-MM-DD calendar date`). */
  expected: string;
  /** What was found, as compact JSON text or a short description. */
  found: string;
  /** One sentence for people: `/3/yes_price must be number (got "0.63")`. */
  message: string;
}

/** Renders a value as short JSON text for a finding's `found`, truncated to `max` characters. */
export function describeFound(value: unknown, max = 60): string {
  if (value === undefined) return 'nothing (missing)';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Escapes one reference token for a JSON pointer (RFC 6901 §4: `~` → `~0`, `/` → `~1`). */
export function pointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Reads the value at an RFC 6901 JSON pointer, or undefined when a token is absent. */
export function valueAtPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
