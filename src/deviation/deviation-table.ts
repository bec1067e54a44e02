import { DEVIATIONS, UNPROVOKED_FINDINGS } from './deviation-catalogue.js';
import type { DeclaredFinding } from './deviation-definition.js';

const RECORD_TEXT = {
  market: { kept: 'kept', dropped: 'left out', cut: 'kept' },
  list: { kept: 'all kept', dropped: 'none', cut: 'those before the cut' },
} as const;

/** A declared finding as a table cell line: severity, code, list or item, pointer template. */
function findingCell(f: DeclaredFinding): string {
  const where = f.endpoint === 'GET /markets' ? 'list' : 'item';
  return `${f.severity} \`${f.code}\` ${where}${f.pointer === '' ? '' : ` \`${f.pointer}\``}`;
}

/**
 * The deviation catalogue as a Markdown table for the README (scripts/gen-readme.ts, section
 * `deviations`): name (former names), class, endpoints, what is served, what `check` reports,
 * what a watch reports over time and within how many rounds (ticking between rounds), what
 * `record` writes of an affected market.
 */
export function deviationTable(): string {
  const rows = DEVIATIONS.map((d) => {
    const name = `\`${d.name}\`${d.aliases ? ` (was \`${d.aliases.join('`, `')}\`)` : ''}`;
    const reports = d.findings.length > 0 ? d.findings.map(findingCell).join('<br>') : `nothing: ${d.unseen ?? ''}`;
    const served = `${d.scope === 'list' ? 'the list: ' : ''}${d.describe}`.replaceAll('|', '\\|');
    const watched = d.watch ? `${d.watch.findings.map((code) => `warning \`${code}\``).join('<br>')} within ${d.watch.rounds} round${d.watch.rounds === 1 ? '' : 's'}` : '';
    return `| ${name} | ${d.class} | ${d.endpoints.join(', ')} | ${served} | ${reports} | ${watched} | ${RECORD_TEXT[d.scope][d.record]} |`;
  });
  return ['| deviation | class | endpoints | what is served | `check --all` reports | `check --watch` reports over time | `record` writes the market |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The checker's errors and warnings no deviation provokes, with the reason, as a Markdown table. */
export function unprovokedTable(): string {
  const rows = UNPROVOKED_FINDINGS.map((u) => `| ${u.severity} \`${u.code}\` | ${u.why.replaceAll('|', '\\|')} |`);
  return ['| finding | why no deviation provokes it |', '|---|---|', ...rows].join('\n');
}
