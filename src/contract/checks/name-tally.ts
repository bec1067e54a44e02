import { NAME_SAMPLE } from '../../floor/limits.js';
import { shortenValue } from '../../floor/display-value.js';
import type { FindingName } from './contract-finding.js';

/**
 * The words of a finding that counts member names (`undocumented-field`): how many names, where,
 * and a sample of the most frequent (NAME_SAMPLE, each shortened for display), so a market with
 * 10,000 extra members is one line in a report, not 20,000. The JSON report carries every name
 * (ContractFinding.names).
 */
export function describeNames(names: readonly FindingName[], uncounted: number, pointer: string): { found: string; message: string } {
  const shown = names.slice(0, NAME_SAMPLE).map((n) => `${JSON.stringify(shortenValue(n.name))} ×${n.count.toLocaleString('en-US')}`);
  const more = names.length - shown.length;
  const beyond = uncounted > 0 ? `; ${uncounted.toLocaleString('en-US')} more occurrences of names past the limit, not named` : '';
  const sample = `${shown.join(', ')}${more > 0 ? `, and ${more.toLocaleString('en-US')} more (all in the JSON report)` : ''}${beyond}`;
  const count = `${names.length.toLocaleString('en-US')} undocumented member name${names.length === 1 ? '' : 's'}`;
  return { found: `${count}: ${sample}`, message: `${count} at ${pointer || '/'}: ${sample}` };
}
