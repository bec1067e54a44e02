import type { ServeConfig } from '../config.js';
import { SERVE_OPTIONS, type ServeValues } from '../options/tables/serve-options.js';
import { optionKey, type AnyOptionValues, type ResolvedOptions } from '../options/resolve-options.js';
import { ignoredServeOptions } from '../options/ignored-options.js';

/**
 * `serve --print-config`: every serve option's resolved value and where it came from, one line
 * each, in the order of `serve --help` (`port  4010  market-stub.config.json /serve/port`).
 * Values are JSON; a secret shows `(set, not shown)` and never its value; the clock shows the
 * date a default of today resolved to; rules show how many and from where; an option the others
 * make ignored (count with fixtures) says so after its origin.
 */
export function formatServeConfig(config: ServeConfig, resolved: ResolvedOptions<ServeValues>): string {
  const ignored = new Map(ignoredServeOptions(resolved).map((o) => [o.key, o]));
  // Read row by row, by each row's key: the table's values seen as a record (a widening, not a cast).
  const values: AnyOptionValues = resolved.values;
  const origins: Readonly<Record<string, string | undefined>> = resolved.origins;
  const rows: [string, string, string][] = [];
  for (const spec of SERVE_OPTIONS) {
    if (spec.flag === 'print-config') continue;
    const key = optionKey(spec);
    const value = key === 'clock' ? config.values.clock : values[key];
    const origin = origins[key] ?? 'default';
    const shown = value === undefined ? '(not set)' : spec.secret ? '(set, not shown)' : JSON.stringify(value);
    const because = ignored.get(key)?.because;
    rows.push([key, shown, key === 'clock' && origin === 'default' ? 'default (today, UTC)' : because ? `${origin} (ignored: ${because})` : origin]);
  }
  const rules = config.rules.length;
  rows.push(['rules', rules === 0 ? '(none)' : `${rules} rule${rules === 1 ? '' : 's'}`, config.origins.rules ?? 'default']);
  const keyWidth = Math.max(...rows.map(([k]) => k.length));
  const valueWidth = Math.min(48, Math.max(...rows.map(([, v]) => v.length)));
  const lines = rows.map(([k, v, o]) => `  ${k.padEnd(keyWidth)}  ${v.padEnd(valueWidth)}  ${o}`.trimEnd());
  return `market-stub serve configuration (flag > environment > config file > default):\n${lines.join('\n')}\n`;
}
