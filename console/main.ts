// The web console's entry (bundled into dist/console/console.js): wires the panes to the admin API.
import { AdminCallError } from './admin-answer.js';
import { adminCall, downloadHar, storeToken, storedToken } from './admin-client.js';
import { createBehaviourControls } from './behaviour-controls.js';
import { createCatalogView } from './catalog-view.js';
import { createClockControls } from './clock-controls.js';
import type { ClockReading } from './clock-model.js';
import type { BehaviourState, DeviationState, JournalPage, MarketRow } from './console-types.js';
import { createDeviationControls } from './deviation-controls.js';
import { byId, replace } from './dom.js';
import { missedBy, newEntries, nextRead, type FeedCursor } from './journal-feed.js';
import { createJournalView } from './journal-view.js';
import { bindKeys } from './keys.js';

/** Journal polling period, ms: a new request shows within about half a second (2 s while the tab is hidden). */
const POLL_MS = 400;
const HIDDEN_POLL_MS = 2000;

let markets: MarketRow[] = [];
let deviations: DeviationState = { catalogue: [], active: [] };
let locked = true;
let paused = false;
let cursor: FeedCursor = { lastSeq: 0 };

function say(kind: 'ok' | 'error', line: string): void {
  const message = byId('message', HTMLElement);
  message.className = kind;
  replace(message, line);
}

function lock(reason: string): void {
  locked = true;
  document.body.classList.add('locked');
  byId('lock', HTMLElement).hidden = false;
  replace(byId('lock-reason', HTMLElement), reason);
  byId('token-input', HTMLInputElement).focus();
}

const selectedMarket = (): MarketRow | undefined => markets.find((m) => m.market_id === catalog.selected());
const catalog = createCatalogView((market) => deviationControls.render(deviations, market));
const deviationControls = createDeviationControls(act);
const behaviourControls = createBehaviourControls(act);
const clockControls = createClockControls(act);
const journal = createJournalView();

/** What the panes were last drawn from, to redraw only on a change. */
let drawn = '';

/**
 * Reads catalog, deviations, behaviours and the clock again and redraws them (`onlyIfChanged`: the
 * panes only when something differs from what is drawn, so a refresh in the background leaves the
 * page alone; the clock always, as it is read).
 */
async function reload(onlyIfChanged = false): Promise<void> {
  const [m, d, b, c] = await Promise.all([adminCall('GET', '/markets'), adminCall('GET', '/deviations'), adminCall('GET', '/behaviours'), adminCall('GET', '/clock')]);
  clockControls.render(c as ClockReading);
  const signature = JSON.stringify([m, d, b]);
  if (onlyIfChanged && signature === drawn) return;
  drawn = signature;
  markets = m as MarketRow[];
  deviations = d as DeviationState;
  catalog.render(markets, deviations);
  deviationControls.render(deviations, selectedMarket());
  behaviourControls.render(b as BehaviourState);
}

function failed(error: unknown): string {
  if (error instanceof AdminCallError && error.status === 401) {
    lock(storedToken() === undefined ? 'The admin API needs its token (the --admin-token or MARKET_STUB_ADMIN_TOKEN value).' : 'The admin API refused the token this tab holds. Enter it again.');
  }
  return error instanceof Error ? error.message : String(error);
}

/** Runs one action, says how it went, then reloads what it may have changed. */
async function act(label: string, job: () => Promise<unknown>): Promise<void> {
  try {
    await job();
    say('ok', `${label} ✓`);
  } catch (error) {
    say('error', `${label}: ${failed(error)}`);
    return;
  }
  await reload().catch((error: unknown) => say('error', failed(error)));
}

async function pollJournal(): Promise<void> {
  if (!locked && !paused) {
    try {
      const probe = (await adminCall('GET', '/requests?limit=1')) as JournalPage;
      const read = nextRead(cursor, probe);
      if (read.kind !== 'none') {
        if (read.kind === 'reset') {
          journal.clear();
          cursor = { lastSeq: 0 };
        }
        let page = (await adminCall('GET', `/requests?limit=${read.limit}`)) as JournalPage;
        const again = missedBy(cursor, page, read.limit);
        if (again !== undefined) page = (await adminCall('GET', `/requests?limit=${again}`)) as JournalPage;
        const next = newEntries(cursor, page);
        cursor = next.cursor;
        journal.add(next.entries);
        Object.assign(probe, { total: page.total, size: page.size });
      }
      journal.status(`live · ${probe.total} requests seen · journal holds ${probe.size} of ${probe.capacity}`);
    } catch (error) {
      journal.status(`not live: ${failed(error)}`);
    }
  }
  setTimeout(() => void pollJournal(), document.hidden ? HIDDEN_POLL_MS : POLL_MS);
}

/** Reads the clock alone (the panes are not read again: a control has the focus, or the catalog is too large). */
async function readClock(): Promise<void> {
  clockControls.render((await adminCall('GET', '/clock')) as ClockReading);
}

/** Catalog refresh period in the background, ms, and the largest catalog refreshed so (a bigger one waits for r). */
const REFRESH_MS = 3000;
const MAX_REFRESHED_MARKETS = 2000;

/**
 * Follows changes other clients make over the admin API (a test suite ticking, patching markets,
 * moving the clock, spending rules' `times`): every REFRESH_MS while the tab is visible, unless a
 * control or catalog row has the focus (a redraw would take it away) or the catalog is larger than
 * MAX_REFRESHED_MARKETS; the clock alone is read then.
 */
function refreshInBackground(): void {
  setTimeout(() => {
    const focused = document.activeElement;
    const busy = focused !== null && focused !== document.body && !byId('journal', HTMLElement).contains(focused);
    const visible = !locked && !document.hidden;
    const run = visible && !busy && markets.length <= MAX_REFRESHED_MARKETS ? reload(true) : visible ? readClock() : Promise.resolve();
    void run.catch((error: unknown) => say('error', failed(error))).finally(refreshInBackground);
  }, REFRESH_MS);
}

/** Asks the admin index; unlocked when it answers, locked (asking for the token) on 401. */
async function connect(): Promise<void> {
  try {
    const index = (await adminCall('GET', '')) as { version?: unknown };
    locked = false;
    document.body.classList.remove('locked');
    byId('lock', HTMLElement).hidden = true;
    byId('token-forget', HTMLButtonElement).hidden = storedToken() === undefined;
    replace(byId('version', HTMLElement), `v${String(index.version)}`);
    await reload();
    say('ok', 'connected');
  } catch (error) {
    say('error', failed(error));
  }
}

byId('token-form', HTMLFormElement).addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId('token-input', HTMLInputElement);
  storeToken(input.value);
  input.value = '';
  void connect();
});
byId('token-forget', HTMLButtonElement).addEventListener('click', () => {
  storeToken(undefined);
  lock('Token forgotten. Enter it to use the console again.');
});
byId('journal-pause', HTMLButtonElement).addEventListener('click', (event) => {
  paused = !paused;
  (event.currentTarget as HTMLButtonElement).textContent = paused ? 'Resume' : 'Pause';
  journal.status(paused ? 'paused (p resumes)' : 'resuming…');
});
byId('journal-clear', HTMLButtonElement).addEventListener('click', () => void act('empty the journal', async () => {
  await adminCall('DELETE', '/requests');
  journal.clear();
  cursor = { lastSeq: 0 };
}));
byId('journal-har', HTMLButtonElement).addEventListener('click', () => void act('download the HAR', downloadHar));
byId('catalog-refresh', HTMLButtonElement).addEventListener('click', () => void act('reload', () => Promise.resolve()));
bindKeys({ tick: () => behaviourControls.tick(), pause: () => byId('journal-pause', HTMLButtonElement).click(), reload: () => void act('reload', () => Promise.resolve()) });

void connect().then(() => {
  void pollJournal();
  refreshInBackground();
});
