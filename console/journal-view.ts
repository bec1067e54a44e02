import { byId, h, replace } from './dom.js';
import { text } from './value-text.js';
import { curlCommand } from './curl-command.js';
import type { JournalEntry } from './console-types.js';
import { entryMatches, MAX_HELD_ENTRIES, type JournalFilterInput } from './journal-feed.js';

function statusClass(status: number | null): string {
  if (status === null) return 'st-none';
  return `st-${String(status)[0]}xx`;
}

function clock(iso: string): string {
  const at = iso.indexOf('T');
  return at === -1 ? iso : iso.slice(at + 1, at + 13);
}

function queryText(query: JournalEntry['query']): string {
  const pairs = Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => `${k}=${one}`));
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** The expanded part of an entry: status, duration, behaviour, query and headers (as journaled: redacted unless the stub keeps them in full). */
function entryDetail(entry: JournalEntry): HTMLElement {
  const headers = Object.entries(entry.headers).filter(([, v]) => v !== undefined);
  return h('div', { class: 'detail' },
    h('dl', {},
      h('dt', {}, 'status'), h('dd', {}, entry.status === null ? 'none (connection reset before a response)' : String(entry.status)),
      h('dt', {}, 'duration'), h('dd', {}, `${entry.durationMs} ms`),
      h('dt', {}, 'behaviour'), h('dd', {}, entry.behaviour.length === 0 ? 'none' : entry.behaviour.join(', ')),
      h('dt', {}, 'time'), h('dd', {}, entry.time),
      ...explainRows(entry.explain),
      Object.keys(entry.query).length > 0 && h('dt', {}, 'query'), Object.keys(entry.query).length > 0 && h('dd', { class: 'mono' }, text(entry.query))),
    curlRow(entry),
    h('table', { class: 'headers' }, h('caption', {}, `headers (${headers.length}${entry.headersDropped ? `, ${entry.headersDropped} left out: over the journal's per-entry bytes` : ''})`),
      h('tbody', {}, ...headers.map(([name, value]) => h('tr', {}, h('th', {}, name), h('td', {}, Array.isArray(value) ? value.join(', ') : text(value)))))));
}

/** "Copy as curl": the request again as a curl command against this stub (redacted headers left out, and said so). */
function curlRow(entry: JournalEntry): HTMLElement {
  const { command, redacted } = curlCommand(entry, location.origin);
  const code = h('code', { class: 'curl mono' }, command);
  const button = h('button', { type: 'button', class: 'copy-curl', title: 'Copy this request as a curl command' }, 'Copy as curl');
  button.addEventListener('click', () => {
    void navigator.clipboard.writeText(command).then(() => replace(button, 'Copied'), () => replace(button, 'Select the command to copy it'));
  });
  return h('div', { class: 'curl-row' }, button, code, redacted.length > 0 && h('span', { class: 'muted small' }, ` (left out, redacted in the journal: ${redacted.join(', ')})`));
}

/** Why this answer (docs/explain.md), when it was explained: the record its Market-Stub-Explain header was written from. */
function explainRows(explain: JournalEntry['explain']): HTMLElement[] {
  if (explain === undefined) return [];
  const rules = explain.rules.map((r) => (r.left === undefined ? r.id : `${r.id} (${r.left} left)`));
  const { envelope, paging, errors } = explain.profile;
  return [
    h('dt', {}, 'deviations'), h('dd', { class: 'explain' }, explain.deviations.length === 0 ? 'none' : explain.deviations.join(', ')),
    h('dt', {}, 'rules'), h('dd', { class: 'explain' }, rules.length === 0 ? 'none' : rules.join(', ')),
    h('dt', {}, 'profile'), h('dd', { class: 'explain' }, `envelope ${envelope}, paging ${paging}, errors ${errors}`),
    h('dt', {}, 'instant'), h('dd', { class: 'explain' }, explain.instant),
  ];
}

function entryNode(entry: JournalEntry): HTMLDetailsElement {
  const details = h('details', { class: `entry ${statusClass(entry.status)}${entry.behaviour.length > 0 ? ' faulted' : ''}`, 'data-seq': entry.seq },
    h('summary', {},
      h('span', { class: 'seq' }, `#${entry.seq}`),
      h('span', { class: 'time' }, clock(entry.time)),
      h('span', { class: 'method' }, entry.method),
      h('span', { class: 'where' },
        h('span', { class: 'path', title: `${entry.path}${queryText(entry.query)}` }, `${entry.path}${queryText(entry.query)}`),
        entry.behaviour.length > 0 && h('span', { class: 'behaviour', title: entry.behaviour.join(', ') }, entry.behaviour.join(' '))),
      h('span', { class: 'status' }, entry.status === null ? 'reset' : String(entry.status)),
      h('span', { class: 'ms' }, `${Math.round(entry.durationMs)} ms`)));
  // Built when first opened: a held journal of 500 entries costs 500 summaries, not 500 header tables.
  details.addEventListener('toggle', () => {
    if (details.open && details.childElementCount === 1) details.append(entryDetail(entry));
  }, { once: false });
  return details;
}

/** The journal pane: entries newest first, at most MAX_HELD_ENTRIES, filtered as the filter controls say. */
export function createJournalView(): { add(entries: readonly JournalEntry[]): void; clear(): void; refilter(): void; status(line: string): void } {
  const list = byId('journal-list', HTMLElement);
  const filterText = byId('journal-filter', HTMLInputElement);
  const method = byId('journal-method', HTMLSelectElement);
  const status = byId('journal-status', HTMLSelectElement);
  const held = new WeakMap<Element, JournalEntry>();
  const filter = (): JournalFilterInput => ({ text: filterText.value, method: method.value, status: status.value as JournalFilterInput['status'] });
  const count = () => {
    const shown = [...list.children].filter((c) => !(c as HTMLElement).hidden).length;
    replace(byId('journal-count', HTMLElement), `${shown} of ${list.childElementCount} held`);
  };
  const refilter = () => {
    const current = filter();
    for (const node of list.children) {
      const entry = held.get(node);
      if (entry) (node as HTMLElement).hidden = !entryMatches(entry, current);
    }
    count();
  };
  for (const control of [filterText, method, status]) control.addEventListener('input', refilter);
  count();
  return {
    add(entries) {
      const current = filter();
      for (const entry of entries) {
        const node = entryNode(entry);
        held.set(node, entry);
        node.hidden = !entryMatches(entry, current);
        list.prepend(node);
      }
      while (list.childElementCount > MAX_HELD_ENTRIES) list.lastElementChild?.remove();
      count();
    },
    clear() {
      list.replaceChildren();
      count();
    },
    refilter,
    status(line) {
      replace(byId('journal-state', HTMLElement), line);
    },
  };
}
