import { closest, distance } from 'fastest-levenshtein';

/**
 * The known name a typo meant, for every surface that names one ("did you mean …?": a flag, a
 * config file key, a library option, a deviation name): the closest of `known` by edit distance
 * (Levenshtein, fastest-levenshtein), when it is within max(1, min(3, ⌊length / 3⌋)) edits of
 * `given` (1 for `port`, 3 for a name of 9 characters or more such as a deviation name) or differs
 * from it by one swap of neighbouring letters (`prot` for `port`: two edits to Levenshtein, one
 * slip of the fingers); else undefined, so that an unrelated word gets no guess (`--port` to a
 * command without it is not `--out`).
 */
export function nearestName(given: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const swapped = known.find((name) => swapsNeighbours(given, name));
  if (swapped !== undefined) return swapped;
  const best = closest(given, [...known]);
  return distance(given, best) <= Math.max(1, Math.min(3, Math.floor(best.length / 3))) ? best : undefined;
}

/** True when `b` is `a` with two neighbouring characters swapped (`prot`, `port`). */
function swapsNeighbours(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const at = [...a].findIndex((char, i) => char !== b[i]);
  return at >= 0 && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}
