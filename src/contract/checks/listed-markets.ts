import { fnv1a } from '../../floor/text-hash.js';

/** A text the list showed, kept compactly: its hash and length for comparison, a short form for messages. */
export interface ListedText {
  /** FNV-1a over the UTF-16 code units. */
  hash: number;
  length: number;
  /** The text when it is short, else its first characters and `…`. */
  shown: string;
  /** True when `shown` is the whole text. */
  complete: boolean;
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

const INITIAL = 1024;

/**
 * The markets seen in one list traversal, in list order, by id, stored column-wise in typed
 * arrays: ids as UTF-8 bytes with an open-addressing hash index, titles and statuses as hash,
 * length and a short prefix, prices as doubles. A list of 3.5 million markets (a 550 MB body)
 * costs about 110 bytes a market, and holds no string or object per market, so the garbage
 * collector has nothing to walk.
 */
export class ListedMarkets {
  private count = 0;
  private idBytes: Buffer = Buffer.alloc(INITIAL * 16);
  private idEnd = 0;
  private idStart = new Uint32Array(INITIAL + 1);
  private idHash = new Uint32Array(INITIAL);
  /** Open addressing: slot → index + 1 (0 = empty); capacity a power of two, at most half full. */
  private slots = new Int32Array(INITIAL * 2);
  private titles = new TextColumn(24);
  private statuses = new InternColumn();
  private prices = new Float64Array(INITIAL * 2);

  get size(): number {
    return this.count;
  }

  has(id: string): boolean {
    return this.find(id) !== -1;
  }

  /** Scratch space for the UTF-8 bytes of the id being looked up. */
  private probe = Buffer.alloc(256);
  private probeLength = 0;
  private probeHash = 0;

  /** The id listed at position `k` (0-based, list order). */
  idAt(k: number): string {
    return this.idBytes.toString('utf8', this.idStart[k] as number, this.idStart[k + 1] as number);
  }

  /** Every id in list order (a new array: for small lists and the proxy's record order). */
  ids(): string[] {
    return Array.from({ length: this.count }, (_, k) => this.idAt(k));
  }

  /** Adds a market, or replaces the listing of a known id in place (the proxy sees the list again). */
  set(id: string, item: Record<string, unknown>): void {
    let at = this.find(id);
    if (at === -1) at = this.append();
    this.titles.set(at, item['title']);
    this.statuses.set(at, item['status']);
    this.prices[at * 2] = finite(item['yes_price']);
    this.prices[at * 2 + 1] = finite(item['no_price']);
  }

  /** `[yes_price, no_price]` of every listed market in list order (NaN where the list's value was not a finite number). */
  *pricePairs(): IterableIterator<readonly [number, number]> {
    for (let k = 0; k < this.count; k++) yield [this.prices[k * 2] as number, this.prices[k * 2 + 1] as number];
  }

  /** The list position (0-based) where `id` was first listed, or -1. */
  positionOf(id: string): number {
    return this.find(id);
  }

  get(id: string): ListedMarket | undefined {
    const at = this.find(id);
    if (at === -1) return undefined;
    const yes = this.prices[at * 2] as number;
    const no = this.prices[at * 2 + 1] as number;
    return { id: this.idAt(at), title: this.titles.get(at), status: this.statuses.get(at), yes_price: Number.isNaN(yes) ? undefined : yes, no_price: Number.isNaN(no) ? undefined : no };
  }

  /**
   * Adds every market of `other`, in its order: a market listed here already keeps its place and
   * takes the new listing when `replace` (the proxy), else keeps the first one (a crawl). When this
   * store is empty, `other`'s storage is taken over instead of copied.
   */
  absorb(other: ListedMarkets, replace = false): void {
    if (this.count === 0) {
      Object.assign(this, other.takeStorage());
      return;
    }
    for (let k = 0; k < other.count; k++) {
      const id = other.idAt(k);
      let at = this.find(id);
      if (at !== -1 && !replace) continue;
      if (at === -1) at = this.append();
      this.titles.copy(at, other.titles, k);
      this.statuses.copy(at, other.statuses, k);
      this.prices[at * 2] = other.prices[k * 2] as number;
      this.prices[at * 2 + 1] = other.prices[k * 2 + 1] as number;
    }
  }

  private takeStorage(): Partial<ListedMarkets> {
    const taken = { count: this.count, idBytes: this.idBytes, idEnd: this.idEnd, idStart: this.idStart, idHash: this.idHash, slots: this.slots, titles: this.titles, statuses: this.statuses, prices: this.prices };
    Object.assign(this, new ListedMarkets());
    return taken as unknown as Partial<ListedMarkets>;
  }

  /** Looks `id` up; leaves its bytes and hash in the probe for an append that follows. */
  private find(id: string): number {
    if (id.length * 3 > this.probe.length) this.probe = Buffer.alloc(id.length * 3);
    const length = this.probe.write(id, 0, 'utf8');
    const hash = fnv1a(id);
    this.probeLength = length;
    this.probeHash = hash;
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] as number;
      if (entry === 0) return -1;
      const k = entry - 1;
      const start = this.idStart[k] as number;
      if (this.idHash[k] === hash && (this.idStart[k + 1] as number) - start === length && this.probe.compare(this.idBytes, start, start + length, 0, length) === 0) return k;
    }
  }

  /** Appends the id last looked up by find (its bytes are in the probe). */
  private append(): number {
    const at = this.count;
    const length = this.probeLength;
    if (this.idEnd + length > this.idBytes.length) this.idBytes = grownBuffer(this.idBytes, this.idEnd + length);
    this.probe.copy(this.idBytes, this.idEnd, 0, length);
    if (at + 2 > this.idStart.length) this.idStart = grown(this.idStart, at + 2);
    if (at + 1 > this.idHash.length) this.idHash = grown(this.idHash, at + 1);
    if ((at + 1) * 2 > this.prices.length) this.prices = grown(this.prices, (at + 1) * 2);
    this.idStart[at] = this.idEnd;
    this.idEnd += length;
    this.idStart[at + 1] = this.idEnd;
    this.idHash[at] = this.probeHash;
    this.count++;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(at);
    return at;
  }

  private place(k: number): void {
    const mask = this.slots.length - 1;
    let slot = (this.idHash[k] as number) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = k + 1;
  }

  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity);
    for (let k = 0; k < this.count; k++) this.place(k);
  }
}

/**
 * A field with few distinct values (status): each market keeps a 16-bit index into the distinct
 * texts; past MAX_DISTINCT distinct values a text is not kept (not compared).
 */
class InternColumn {
  static readonly MAX_DISTINCT = 4096;
  private codes = new Uint16Array(INITIAL);
  private readonly texts: ListedText[] = [];
  private readonly index = new Map<string, number>();

  set(k: number, value: unknown): void {
    if (k >= this.codes.length) this.codes = grown(this.codes, k + 1);
    if (typeof value !== 'string') {
      this.codes[k] = 0;
      return;
    }
    let code = this.index.get(value);
    if (code === undefined) {
      if (this.texts.length >= InternColumn.MAX_DISTINCT) {
        this.codes[k] = 0;
        return;
      }
      this.texts.push({ hash: fnv1a(value), length: value.length, shown: `${value}\u0000`.slice(0, -1), complete: true });
      code = this.texts.length;
      this.index.set((this.texts[code - 1] as ListedText).shown, code);
    }
    this.codes[k] = code;
  }

  get(k: number): ListedText | undefined {
    const code = this.codes[k] as number;
    return code === 0 ? undefined : this.texts[code - 1];
  }

  copy(k: number, from: InternColumn, j: number): void {
    this.set(k, from.get(j)?.shown);
  }
}

/** Strings of one field, column-wise: hash, length (-1: not a string) and the first `prefix` UTF-16 code units. */
class TextColumn {
  private hash = new Uint32Array(INITIAL);
  private length = new Int32Array(INITIAL);
  private units: Uint16Array;

  constructor(private readonly prefix: number) {
    this.units = new Uint16Array(INITIAL * prefix);
  }

  set(k: number, value: unknown): void {
    this.ensure(k);
    if (typeof value !== 'string') {
      this.length[k] = -1;
      return;
    }
    this.hash[k] = fnv1a(value);
    this.length[k] = value.length;
    const base = k * this.prefix;
    const n = Math.min(this.prefix, value.length);
    for (let i = 0; i < n; i++) this.units[base + i] = value.charCodeAt(i);
  }

  get(k: number): ListedText | undefined {
    const length = this.length[k] as number;
    if (length < 0) return undefined;
    const base = k * this.prefix;
    const head = String.fromCharCode(...this.units.subarray(base, base + Math.min(this.prefix, length)));
    const complete = length <= this.prefix;
    return { hash: this.hash[k] as number, length, shown: complete ? head : `${head}…`, complete };
  }

  copy(k: number, from: TextColumn, j: number): void {
    this.ensure(k);
    this.hash[k] = from.hash[j] as number;
    this.length[k] = from.length[j] as number;
    this.units.set(from.units.subarray(j * from.prefix, (j + 1) * from.prefix), k * this.prefix);
  }

  private ensure(k: number): void {
    if (k < this.hash.length) return;
    this.hash = grown(this.hash, k + 1);
    this.length = grown(this.length, k + 1);
    this.units = grown(this.units, (k + 1) * this.prefix);
  }
}

/** True when `value` is the text `listed` stands for (same length and hash; short texts compared whole). */
export function sameText(listed: ListedText, value: string): boolean {
  if (listed.length !== value.length || listed.hash !== fnv1a(value)) return false;
  return !listed.complete || listed.shown === value;
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN;
}

type TypedArray = Uint32Array | Int32Array | Uint16Array | Float64Array;

/** A copy of `array` with room for at least `min` elements (capacity doubled). */
function grown<T extends TypedArray>(array: T, min: number): T {
  let capacity = array.length;
  while (capacity < min) capacity *= 2;
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  return next;
}

function grownBuffer(buffer: Buffer, min: number): Buffer {
  let capacity = buffer.length;
  while (capacity < min) capacity *= 2;
  const next = Buffer.alloc(capacity);
  buffer.copy(next);
  return next;
}
