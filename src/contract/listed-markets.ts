import { fnv1a } from '../core/text-hash.js';
/** A text the list showed, kept compactly: its hash and length for comparison, a short form for messages. */
export interface ListedText {
  /** FNV-1a over the UTF-16 code units. */
  hash: number;
  length: number;
  /** The text itself when at most SHOWN_MAX characters, else its first SHOWN_MAX characters and `…`. */
  shown: string;
}

/** A market as the list showed it, kept to compare with its single response. */
export interface ListedMarket {
  /** The market_id as listed, or its decimal text when the list sent a number (itself an error). */
  id: string;
  /** Undefined when the list's value was not a string. */
  title: ListedText | undefined;
  status: ListedText | undefined;
  /** Undefined when the list's value was not a finite number. */
  yes_price: number | undefined;
  no_price: number | undefined;
}

/** Characters of a listed title kept for messages (findings show at most 40). */
const SHOWN_MAX = 44;
const GROW = 1024;

/**
 * The markets seen in one list traversal, in list order, by id: a compact store, so a list of
 * millions of markets costs about 150 bytes a market (an id map, typed arrays for prices and
 * hashes, short texts), not the object tree JSON.parse would build.
 */
export class ListedMarkets {
  private index = new Map<string, number>();
  private idList: string[] = [];
  private titles: (ListedText | undefined)[] = [];
  private statuses: (ListedText | undefined)[] = [];
  private prices = new Float64Array(GROW * 2);
  private readonly statusTexts = new Map<string, ListedText>();

  get size(): number {
    return this.idList.length;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  /** Ids in list order (first listing). */
  ids(): string[] {
    return [...this.idList];
  }

  /** Adds a market, or replaces the listing of a known id in place (the proxy sees the list again). */
  set(id: string, item: Record<string, unknown>): void {
    let at = this.index.get(id);
    if (at === undefined) {
      at = this.idList.length;
      const own = flat(id);
      this.index.set(own, at);
      this.idList.push(own);
      this.grow(at);
    }
    this.titles[at] = listedText(item['title']);
    const status = item['status'];
    this.statuses[at] = typeof status === 'string' ? this.statusText(status) : undefined;
    this.prices[at * 2] = finite(item['yes_price']);
    this.prices[at * 2 + 1] = finite(item['no_price']);
  }

  get(id: string): ListedMarket | undefined {
    const at = this.index.get(id);
    if (at === undefined) return undefined;
    const yes = this.prices[at * 2] as number;
    const no = this.prices[at * 2 + 1] as number;
    return { id: this.idList[at] as string, title: this.titles[at], status: this.statuses[at], yes_price: Number.isNaN(yes) ? undefined : yes, no_price: Number.isNaN(no) ? undefined : no };
  }

  /**
   * Adds every market of `other`, in its order: a market listed here already keeps its place and
   * takes the new listing when `replace` (the proxy), else keeps the first one (a crawl). When this
   * store is empty, `other`'s storage is taken over instead of copied.
   */
  absorb(other: ListedMarkets, replace = false): void {
    if (this.idList.length === 0) {
      [this.index, this.idList, this.titles, this.statuses, this.prices] = [other.index, other.idList, other.titles, other.statuses, other.prices];
      [other.index, other.idList, other.titles, other.statuses, other.prices] = [new Map(), [], [], [], new Float64Array(GROW * 2)];
      return;
    }
    for (let k = 0; k < other.idList.length; k++) {
      const id = other.idList[k] as string;
      const known = this.index.get(id);
      if (known !== undefined) {
        if (replace) this.copyFrom(other, k, known);
        continue;
      }
      const at = this.idList.length;
      this.index.set(id, at);
      this.idList.push(id);
      this.grow(at);
      this.copyFrom(other, k, at);
    }
  }

  private copyFrom(other: ListedMarkets, from: number, at: number): void {
    this.titles[at] = other.titles[from];
    this.statuses[at] = other.statuses[from];
    this.prices[at * 2] = other.prices[from * 2] as number;
    this.prices[at * 2 + 1] = other.prices[from * 2 + 1] as number;
  }

  private grow(at: number): void {
    if (this.prices.length >= (at + 1) * 2) return;
    const grown = new Float64Array(Math.max(this.prices.length * 2, (at + 1) * 2));
    grown.set(this.prices);
    this.prices = grown;
  }

  private statusText(status: string): ListedText {
    let text = this.statusTexts.get(status);
    if (!text) {
      text = listedText(status) as ListedText;
      // Statuses are few; beyond 64 distinct ones they are not interned (bounded).
      if (this.statusTexts.size < 64) this.statusTexts.set(text.shown === status ? text.shown : flat(status), text);
    }
    return text;
  }
}

/** True when `value` is the text `listed` stands for. */
export function sameText(listed: ListedText, value: string): boolean {
  return listed.length === value.length && listed.hash === fnv1a(value) && (listed.length > SHOWN_MAX || listed.shown === value);
}

function listedText(value: unknown): ListedText | undefined {
  if (typeof value !== 'string') return undefined;
  return { hash: fnv1a(value), length: value.length, shown: flat(value.length <= SHOWN_MAX ? value : `${value.slice(0, SHOWN_MAX - 1)}…`) };
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN;
}


/**
 * A copy of `text` that holds no reference to the (large) string it was cut from: parsers hand out
 * slices of their input chunk, and keeping one slice would keep the whole chunk alive.
 */
function flat(text: string): string {
  return text.length < 13 ? text : `${text}\u0000`.slice(0, -1);
}
