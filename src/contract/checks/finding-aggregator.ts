import { SEVERITY_ORDER, type ContractFinding, type FindingExample, type Observation } from './contract-finding.js';
import { MAX_EXAMPLES, MAX_FINDING_NAME_CHARS, MAX_FINDING_NAMES } from '../../floor/limits.js';
import { describeNames } from './name-tally.js';
import type { FindingCode } from '../../floor/finding-codes.js';


/** Collects observations into aggregated findings; memory grows with distinct findings, not occurrences. */
export interface FindingAggregator {
  /** Counts one occurrence (or `count` occurrences sharing this example) of an observation. */
  add(observation: Observation, count?: number): void;
  /** Adds an aggregated finding (of another aggregator): its count and examples. */
  merge(finding: ContractFinding): void;
  /** Number of distinct aggregated findings so far. */
  readonly size: number;
  /** The aggregated findings, sorted by severity, endpoint, code and pointer. */
  findings(): ContractFinding[];
}

/**
 * Creates an aggregator keyed by (severity, code, endpoint, pointer template): 200,000 markets with
 * the same problem become one finding with count 200,000 and three distinct examples.
 */
export function createFindingAggregator(): FindingAggregator {
  const byKey = new Map<string, ContractFinding>();
  // The names a finding counts (Observation.name), per finding key: bounded by MAX_FINDING_NAMES.
  const namesByKey = new Map<string, { names: Map<string, number>; uncounted: number }>();
  const entryOf = (key: string) => {
    let entry = namesByKey.get(key);
    if (!entry) namesByKey.set(key, (entry = { names: new Map(), uncounted: 0 }));
    return entry;
  };
  const tally = (key: string, name: string, count: number) => {
    const entry = entryOf(key);
    const kept = name.length > MAX_FINDING_NAME_CHARS ? `${name.slice(0, MAX_FINDING_NAME_CHARS - 1)}…` : name;
    const seen = entry.names.get(kept);
    if (seen !== undefined || entry.names.size < MAX_FINDING_NAMES) entry.names.set(kept, (seen ?? 0) + count);
    else entry.uncounted += count;
  };
  const aggregator: FindingAggregator = {
    add(observation, count = 1) {
      const key = `${observation.severity}\u0000${observation.code}\u0000${observation.endpoint}\u0000${observation.pointerTemplate}`;
      if (observation.name !== undefined) tally(key, observation.name, count);
      const existing = byKey.get(key);
      if (existing) {
        existing.count += count;
        if (existing.examples.length < MAX_EXAMPLES && !existing.examples.some((e) => sameExample(e, observation.example))) existing.examples.push(observation.example);
        return;
      }
      byKey.set(key, {
        severity: observation.severity,
        code: observation.code,
        endpoint: observation.endpoint,
        pointer: observation.pointerTemplate,
        expected: observation.expected,
        found: observation.example.found,
        message: observation.message ?? findingMessage(observation),
        count,
        examples: [observation.example],
      });
    },
    merge(finding) {
      const [first, ...rest] = finding.examples;
      if (!first) return;
      // Findings merged here come from another aggregator, so their codes are FindingCodes.
      const observation = { severity: finding.severity, code: finding.code as FindingCode, endpoint: finding.endpoint, pointerTemplate: finding.pointer, expected: finding.expected, message: finding.message };
      aggregator.add({ ...observation, example: first }, finding.count - rest.length);
      for (const example of rest) aggregator.add({ ...observation, example }, 1);
      if (finding.names) {
        const key = `${finding.severity}\u0000${finding.code}\u0000${finding.endpoint}\u0000${finding.pointer}`;
        for (const { name, count } of finding.names) tally(key, name, count);
        if (finding.namesUncounted) entryOf(key).uncounted += finding.namesUncounted;
      }
    },
    get size() {
      return byKey.size;
    },
    findings() {
      return [...byKey.entries()].map(([key, finding]) => withNames(finding, namesByKey.get(key))).sort(compareFindings);
    },
  };
  return aggregator;
}

/** A finding that counts names, with its names (most frequent first, then by name) and the sentence and `found` that sum them up (name-tally.ts). */
function withNames(finding: ContractFinding, entry: { names: Map<string, number>; uncounted: number } | undefined): ContractFinding {
  if (!entry) return finding;
  const names = [...entry.names].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const summary = describeNames(names, entry.uncounted, finding.pointer);
  return { ...finding, found: summary.found, message: summary.message, names, ...(entry.uncounted > 0 ? { namesUncounted: entry.uncounted } : {}) };
}

/** The one-sentence message of an observation: `<pointer template>: expected number, found "0.57"`. */
export function findingMessage(observation: Observation): string {
  return `${observation.pointerTemplate || '/'}: expected ${observation.expected}, found ${observation.example.found}`;
}

/** The same occurrence seen again (the proxy sees a market each time a client asks for it). */
function sameExample(a: FindingExample, b: FindingExample): boolean {
  return a.marketId === b.marketId && a.pointer === b.pointer && a.request === b.request && a.found === b.found;
}

function compareFindings(a: ContractFinding, b: ContractFinding): number {
  return SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity)
    || endpointRank(a.endpoint) - endpointRank(b.endpoint)
    || a.code.localeCompare(b.code)
    || a.pointer.localeCompare(b.pointer);
}

function endpointRank(endpoint: string): number {
  return endpoint === 'deployment' ? 2 : endpoint.includes('{') ? 1 : 0;
}
