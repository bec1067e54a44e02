// The app under test: the data layer of a trading UI. It reads the market list, then each market,
// and shows only markets that keep the contract; every market it leaves out is logged, and a list
// it cannot read leaves the screen empty with one log line. (Your app's own client goes here.)

/** A market as the UI shows it. */
export interface ShownMarket {
  id: string;
  title: string;
  yes: number;
  no: number;
  resolves: string;
}

export interface LoadResult {
  markets: ShownMarket[];
  /** Why the list could not be read, when it could not. */
  listError?: string;
}

/** Reads `GET /markets` and each `GET /markets/{market_id}`; `log` gets one line per market left out (or for the list). */
export async function loadMarkets(baseUrl: string, log: (line: string) => void): Promise<LoadResult> {
  let listed: unknown[];
  try {
    const res = await fetch(`${baseUrl}/markets`);
    if (!res.ok) throw new Error(`GET /markets answered ${res.status}`);
    const body: unknown = await res.json();
    if (!Array.isArray(body)) throw new Error('GET /markets is not a JSON array');
    listed = body;
  } catch (error) {
    const reason = (error as Error).message;
    log(`market list unavailable: ${reason}`);
    return { markets: [], listError: reason };
  }
  const markets: ShownMarket[] = [];
  for (const [index, item] of listed.entries()) {
    const summary = item as Record<string, unknown>;
    const name = typeof summary['market_id'] === 'string' && summary['market_id'] !== '' ? summary['market_id'] : `#${index}`;
    const problem = listProblem(summary) ?? (await detailProblem(baseUrl, summary));
    if (typeof problem === 'string') log(`rejected market ${name}: ${problem}`);
    else markets.push(problem);
  }
  return { markets };
}

/** What is wrong with a list item, or undefined. Fields the UI does not use are ignored. */
function listProblem(item: Record<string, unknown>): string | undefined {
  if (typeof item['market_id'] !== 'string' || item['market_id'] === '') return 'the list item has no string market_id';
  for (const field of ['title', 'status']) if (typeof item[field] !== 'string') return `the list item's ${field} is not a string`;
  for (const field of ['yes_price', 'no_price']) if (typeof item[field] !== 'number') return `the list item's ${field} is not a number`;
  return undefined;
}

/** The market as shown, or what is wrong with its own answer. */
async function detailProblem(baseUrl: string, listed: Record<string, unknown>): Promise<ShownMarket | string> {
  const id = listed['market_id'] as string;
  let market: Record<string, unknown>;
  try {
    const res = await fetch(`${baseUrl}/markets/${encodeURIComponent(id)}`);
    if (!res.ok) return `GET /markets/${id} answered ${res.status}`;
    market = (await res.json()) as Record<string, unknown>;
  } catch (error) {
    return `GET /markets/${id} is not JSON (${(error as Error).message})`;
  }
  if (market === null || typeof market !== 'object' || market['market_id'] !== id) return 'the market answers with another market_id';
  if (market['title'] !== listed['title']) return 'the market and the list disagree on the title';
  if (typeof market['status'] !== 'string') return 'the market has no status (the UI cannot tell whether it trades)';
  const { yes_price: yes, no_price: no, resolution_date: date } = market;
  if (typeof yes !== 'number' || typeof no !== 'number') return 'a price is not a number';
  if (typeof date !== 'string' || !isCalendarDate(date)) return `resolution_date ${JSON.stringify(date)} is not a YYYY-MM-DD date`;
  return { id, title: market['title'] as string, yes, no, resolves: date };
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  return new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}
