import { SEVERITY_ORDER, type ContractFinding, type Severity } from '../checks/index.js';
import type { ContractReport } from '../checks/index.js';

/** The findings that share a severity and a code (every endpoint and pointer), as reviewers read them. */
export interface FindingGroup {
  severity: Severity;
  code: string;
  findings: ContractFinding[];
  /** Occurrences over the group's findings. */
  occurrences: number;
  /** Distinct market_ids of the group's examples, in the order seen (each finding keeps up to three examples). */
  markets: string[];
}

/** A market named by a finding's examples, with what was expected and found there. */
export interface MarketFindings {
  marketId: string;
  entries: Array<{ finding: ContractFinding; pointer: string; found: string; request?: string }>;
}

/** Findings grouped by severity (errors, warnings, information) and then by code, in report order. */
export function groupFindings(report: Pick<ContractReport, 'findings'>): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const severity of SEVERITY_ORDER) {
    for (const finding of report.findings) {
      if (finding.severity !== severity) continue;
      const key = `${severity} ${finding.code}`;
      let group = groups.get(key);
      if (!group) {
        group = { severity, code: finding.code, findings: [], occurrences: 0, markets: [] };
        groups.set(key, group);
      }
      group.findings.push(finding);
      group.occurrences += finding.count;
      for (const example of finding.examples) {
        if (example.marketId !== undefined && !group.markets.includes(example.marketId)) group.markets.push(example.marketId);
      }
    }
  }
  return [...groups.values()];
}

/**
 * The markets named by the error and warning findings' examples, each with every occurrence the
 * report kept for it (pointer, what was found, the request), in the order first seen.
 */
export function marketsWithFindings(report: Pick<ContractReport, 'findings'>): MarketFindings[] {
  const byId = new Map<string, MarketFindings>();
  for (const finding of report.findings) {
    if (finding.severity === 'info') continue;
    for (const example of finding.examples) {
      if (example.marketId === undefined) continue;
      let market = byId.get(example.marketId);
      if (!market) {
        market = { marketId: example.marketId, entries: [] };
        byId.set(example.marketId, market);
      }
      market.entries.push({ finding, pointer: example.pointer, found: example.found, ...(example.request ? { request: example.request } : {}) });
    }
  }
  return [...byId.values()];
}

/** `3 errors`, `1 warning`: a count and its noun. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
