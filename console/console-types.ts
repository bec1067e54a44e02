// The shapes the console reads from the admin API (README "Admin API"), only the members it uses.

/** A market as stored (`GET /__stub/markets`); other members are shown as JSON. */
export interface MarketRow {
  market_id: string;
  title: unknown;
  status: unknown;
  yes_price: unknown;
  no_price: unknown;
  resolution_date?: unknown;
  [member: string]: unknown;
}

/** A journal entry (`GET /__stub/requests`): the stub's own type (type-only, nothing of src/ is bundled). */
export type { JournalEntry } from '../src/journal/request-journal.js';
import type { JournalEntry } from '../src/journal/request-journal.js';

/** `GET /__stub/requests`: the journal's counters and the entries. */
export interface JournalPage {
  total: number;
  size: number;
  capacity: number;
  requests: JournalEntry[];
}

/** A deviation in force: every market, a seeded share (`rate`) or named markets. */
export interface DeviationSetting {
  name: string;
  rate?: number;
  marketIds?: string[];
}

/** Which markets a deviation in force reaches now (`marketIds` when the stub counted them). */
export type { DeviationReach } from '../src/catalog/deviation-reach.js';
import type { DeviationReach } from '../src/catalog/deviation-reach.js';

/** `GET /__stub/deviations`. */
export interface DeviationState {
  catalogue: { name: string; class: string; scope: 'market' | 'list'; describe: string }[];
  active: DeviationSetting[];
  /** Absent only before the first answer. */
  reach?: DeviationReach[];
}

/** A behaviour (`GET /__stub/behaviours`): only the members the console sets are named. */
export type Behaviour = Record<string, unknown>;

/** `GET /__stub/behaviours`. */
export interface BehaviourState {
  global: Behaviour;
  rules: { id: string; match: Record<string, unknown>; behaviour: Behaviour; times?: number }[];
}
