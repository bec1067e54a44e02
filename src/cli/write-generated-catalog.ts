// What `market-stub generate` writes, streamed: the fixtures text of a generated catalog made one
// market at a time, to stdout (with backpressure; a reader that hangs up ends it cleanly), to one
// file, or split into files that each stay within the fixture-file limit of validate and serve.
import { lstat, readdir, rename, rm } from 'node:fs/promises';
import { MAX_FIXTURE_FILE_BYTES } from '../floor/limits.js';
import path from 'node:path';
import { marketAt, type GenerateOptions } from '../catalog/generate-markets.js';
import { fixtureText } from '../catalog/fixture-text.js';
import { makeDirectory } from '../file-system/file-system-cause.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import { unwritableError, writeDurable, writeFailureReason, writeFileAtomic } from '../file-system/write-file-atomic.js';

/** Characters gathered before a chunk is written: large enough that a write costs little per market. */
const CHUNK_CHARS = 64 * 1024;
/** The name of split file number `n` (1-based): sorted by name, they hold the catalog in order. */
export const splitFileName = (n: number): string => `markets-${String(n).padStart(5, '0')}.json`;

/** A generated catalog to write: markets 0…count−1 of (seed, clock), stopped by `signal`. */
export interface GeneratedCatalogSpec extends GenerateOptions {
  count: number;
  signal?: AbortSignal;
}

/** The fixture texts of the catalog's markets, in order (`fixtureText`: one array item, 2-space indented). */
function* marketTexts(spec: GeneratedCatalogSpec): Generator<string> {
  for (let i = 0; i < spec.count; i++) {
    if (i % 4096 === 0 && spec.signal?.aborted) {
      throw new MarketStubError({ code: 'INTERRUPTED', where: 'generate', message: `interrupted after ${i} markets` });
    }
    yield fixtureText(marketAt(i, spec));
  }
}

/**
 * One fixtures file's text from market texts, in chunks of about CHUNK_CHARS: the bytes of
 * `JSON.stringify(markets, null, 2) + '\n'`. Takes texts from `texts` while the file stays within
 * `maxBytes` (at least one market per file); `pending` carries the text that did not fit.
 */
function* arrayChunks(texts: Iterator<string>, state: { pending: IteratorResult<string> }, maxBytes = Number.POSITIVE_INFINITY): Generator<string> {
  if (state.pending.done) {
    yield '[]\n';
    return;
  }
  let bytes = 2;
  let chunk = '[\n';
  let first = true;
  while (!state.pending.done) {
    const text = state.pending.value;
    const added = Buffer.byteLength(text) + (first ? 0 : 2);
    if (!first && bytes + added + 3 > maxBytes) break;
    chunk += first ? text : `,\n${text}`;
    bytes += added;
    first = false;
    state.pending = texts.next();
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}\n]\n`;
}

/** The whole catalog as one fixtures text, in chunks (no limit: for stdout). */
export function catalogChunks(spec: GeneratedCatalogSpec): Generator<string> {
  const texts = marketTexts(spec);
  return arrayChunks(texts, { pending: texts.next() });
}

/**
 * Writes the catalog to a writable stream (stdout), awaiting 'drain' whenever the stream's buffer
 * is full, so memory stays at one chunk whatever the count.
 * @returns `written` (bytes) and `closed` when the reader went away (EPIPE, or the stream was
 *   destroyed): the output stops there, as a reader that stopped reading (`| head`) asked.
 * @throws MarketStubError INTERRUPTED when `signal` aborts; another stream error as it is.
 */
export async function streamCatalog(spec: GeneratedCatalogSpec, stream: NodeJS.WritableStream): Promise<{ bytes: number; closed: boolean }> {
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const onError = (error: Error) => {
    failure = error;
    wake?.();
  };
  const onDrain = () => wake?.();
  stream.on('error', onError);
  stream.on('drain', onDrain);
  let bytes = 0;
  try {
    for (const chunk of catalogChunks(spec)) {
      if (failure) break;
      bytes += Buffer.byteLength(chunk);
      if (!stream.write(chunk)) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    stream.off('drain', onDrain);
  }
  // The error listener stays: a pipe closed after the last write still reports EPIPE, later.
  if (!failure) return { bytes, closed: false };
  const code = (failure as NodeJS.ErrnoException).code;
  if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET') return { bytes, closed: true };
  throw failure;
}

/**
 * Writes the catalog as one fixtures file, atomically (writeFileAtomic). Refused, with nothing
 * written, when the file would exceed MAX_FIXTURE_FILE_BYTES (validate and serve --fixtures read
 * no larger file): the error names the limit and the ways round it.
 * @throws MarketStubError LIMIT_EXCEEDED, OUTPUT_UNWRITABLE (the real cause), INTERRUPTED.
 */
export async function writeCatalogFile(spec: GeneratedCatalogSpec, file: string, where: string): Promise<void> {
  const texts = marketTexts(spec);
  const state = { pending: texts.next() };
  async function* within(): AsyncGenerator<string> {
    yield* arrayChunks(texts, state, MAX_FIXTURE_FILE_BYTES);
    if (!state.pending.done) throw tooLargeError(spec, where, file);
  }
  await writeFileAtomic(file, within(), where);
}

function tooLargeError(spec: GeneratedCatalogSpec, where: string, file: string): MarketStubError {
  const mib = MAX_FIXTURE_FILE_BYTES / 2 ** 20;
  return new MarketStubError({
    code: 'LIMIT_EXCEEDED', where, option: 'out',
    message: `${where} ${file}: ${spec.count} markets exceed the ${mib} MiB limit of one fixture file (validate and serve --fixtures read no larger file); nothing was written. Give --out a directory (--out ${path.join(path.dirname(file), path.basename(file, '.json'))}/) to split them into files within the limit, or serve them without a file: serve --count ${spec.count} --seed ${spec.seed} --clock ${spec.clock}.`,
  });
}

/**
 * Writes the catalog into directory `dir` as files `markets-00001.json`, `markets-00002.json`, …,
 * each within MAX_FIXTURE_FILE_BYTES, which `serve --fixtures DIR` reads back in order. Built in
 * `.<name>.generate-<pid>` beside DIR, each file fsynced, then renamed to DIR in one step: DIR
 * never holds part of a set. DIR must be missing or empty (checked before anything is generated).
 * @returns the number of files written.
 * @throws MarketStubError OUTPUT_UNWRITABLE (DIR not empty, or the real cause), INTERRUPTED.
 */
export async function writeCatalogDirectory(spec: GeneratedCatalogSpec, dir: string, where: string): Promise<number> {
  const target = path.resolve(dir);
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.generate-${process.pid}`);
  const held = await readdir(target).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error))).catch((error: unknown) => {
    throw unwritableError(where, `cannot write ${dir}: ${writeFailureReason(error)}. Nothing was written.`);
  });
  if (held.length > 0) throw unwritableError(where, `cannot write ${dir}: it holds ${held.length} entr${held.length === 1 ? 'y' : 'ies'} (${held.slice(0, 3).join(', ')}${held.length > 3 ? ', …' : ''}); generate writes a set into a missing or empty directory only. Remove them or choose another directory; nothing was written.`);
  let files = 0;
  try {
    await makeDirectory(staging);
    const texts = marketTexts(spec);
    const state = { pending: texts.next() };
    do {
      files += 1;
      await writeDurable(path.join(staging, splitFileName(files)), arrayChunks(texts, state, MAX_FIXTURE_FILE_BYTES));
    } while (!state.pending.done);
    // rename(2) replaces a missing or empty directory in one step (POSIX).
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    if (error instanceof MarketStubError) throw error;
    throw unwritableError(where, `cannot write ${dir}: ${writeFailureReason(error)}. Nothing was written; DIR is as it was.`);
  }
  return files;
}

/** Whether --out names a directory: it ends with a path separator, or is an existing directory. */
export async function namesDirectory(out: string): Promise<boolean> {
  if (out.endsWith('/') || out.endsWith(path.sep)) return true;
  return lstat(out).then((info) => info.isDirectory(), () => false);
}
