import type { JournalEntry, JournalPage } from './console-types.js';

/** Most journal entries the console holds (and asks for in one read); older ones leave the view. */
export const MAX_HELD_ENTRIES = 500;

/** Where the feed stands: the newest sequence number seen (0 before any). */
export interface FeedCursor {
  lastSeq: number;
}

/**
 * What to ask next, given the newest entry of a one-entry probe (`GET /__stub/requests?limit=1`):
 * `none` when nothing is new; `reset` when the journal was cleared (the newest seq went back);
 * otherwise how many of the newest entries to read, at most MAX_HELD_ENTRIES.
 */
export function nextRead(cursor: FeedCursor, probe: JournalPage): { kind: 'none' } | { kind: 'read' | 'reset'; limit: number } {
  const newest = probe.requests[probe.requests.length - 1]?.seq ?? 0;
  if (newest === cursor.lastSeq) return { kind: 'none' };
  if (newest < cursor.lastSeq) return { kind: 'reset', limit: Math.min(Math.max(newest, 1), MAX_HELD_ENTRIES) };
  return { kind: 'read', limit: Math.min(newest - cursor.lastSeq, MAX_HELD_ENTRIES) };
}

/**
 * Whether a read of the newest `limit` entries missed some: entries arrive between the probe and
 * the read, so a full read whose oldest entry is past the cursor's next leaves a gap. Returns the
 * limit to read again with (at most MAX_HELD_ENTRIES), or undefined when nothing was missed.
 */
export function missedBy(cursor: FeedCursor, page: JournalPage, limit: number): number | undefined {
  const oldest = page.requests[0]?.seq;
  const newest = page.requests[page.requests.length - 1]?.seq;
  if (oldest === undefined || newest === undefined || page.requests.length < limit || limit >= MAX_HELD_ENTRIES) return undefined;
  return oldest > cursor.lastSeq + 1 ? Math.min(newest - cursor.lastSeq, MAX_HELD_ENTRIES) : undefined;
}

/** The entries of a read that are new to the cursor (oldest first), and the cursor after them. */
export function newEntries(cursor: FeedCursor, page: JournalPage): { entries: JournalEntry[]; cursor: FeedCursor } {
  const entries = page.requests.filter((e) => e.seq > cursor.lastSeq);
  const last = entries[entries.length - 1];
  return { entries, cursor: { lastSeq: last ? last.seq : cursor.lastSeq } };
}

/** A filter over held entries: text in method, path, status, behaviour or query; a status class; a method. */
export interface JournalFilterInput {
  text: string;
  status: 'all' | '2xx' | '3xx' | '4xx' | '5xx' | 'none' | 'faulted';
  method: string;
}

/** Whether an entry passes the filter (case-insensitive text; `none` is no response, `faulted` any behaviour applied). */
export function entryMatches(entry: JournalEntry, filter: JournalFilterInput): boolean {
  if (filter.method !== '' && entry.method !== filter.method) return false;
  if (!statusMatches(entry, filter.status)) return false;
  const needle = filter.text.trim().toLowerCase();
  if (needle === '') return true;
  const haystack = [entry.method, entry.path, String(entry.status), ...entry.behaviour, JSON.stringify(entry.query)].join(' ').toLowerCase();
  return haystack.includes(needle);
}

function statusMatches(entry: JournalEntry, status: JournalFilterInput['status']): boolean {
  switch (status) {
    case 'all':
      return true;
    case 'none':
      return entry.status === null;
    case 'faulted':
      return entry.behaviour.length > 0;
    default:
      return entry.status !== null && String(entry.status)[0] === status[0];
  }
}
