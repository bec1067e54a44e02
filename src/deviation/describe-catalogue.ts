import { DEVIATIONS } from './deviation-catalogue.js';
import type { DeclaredFinding, DeviationClass, DeviationEndpoint, RecordOutcome } from './deviation-definition.js';

/** One deviation as `GET /__stub/deviations` answers it: the definition without its rewrite functions. */
export interface DeviationDescription {
  name: string;
  class: DeviationClass;
  /** `market`: served by chosen markets (every one, a seeded share, or named ones); `list`: by the whole list answer. */
  scope: 'market' | 'list';
  endpoints: DeviationEndpoint[];
  describe: string;
  /** What `check --all` reports for it (besides information). */
  findings: DeclaredFinding[];
  /** Why `check` reports nothing, when it cannot. */
  unseen?: string;
  /** What a watch reports over time for it (codes), and within how many rounds. */
  watch?: { findings: string[]; rounds: number };
  /** Former names still accepted. */
  aliases?: string[];
  /** What `record` writes of an affected market (or, for a list deviation, of the list). */
  record: RecordOutcome;
}

/** The catalogue as plain JSON data, in catalogue order. */
export function describeCatalogue(): DeviationDescription[] {
  return DEVIATIONS.map((d) => ({
    name: d.name,
    class: d.class,
    scope: d.scope,
    endpoints: [...d.endpoints],
    describe: d.describe,
    findings: d.findings.map((f) => ({ ...f })),
    ...(d.unseen === undefined ? {} : { unseen: d.unseen }),
    ...(d.watch === undefined ? {} : { watch: { findings: [...d.watch.findings], rounds: d.watch.rounds } }),
    ...(d.aliases === undefined ? {} : { aliases: [...d.aliases] }),
    record: d.record,
  }));
}
