import type { Transform } from 'node:stream';
import type { Redactor } from '../floor/redact-secrets.js';
import type { Market } from '../schema/generated/market-types.js';
import { BodyText } from '../contract/http-client/index.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT } from '../contract/checks/index.js';
import { contentDecoders, decodeFailureReason, unsupportedCodingReason } from '../contract/http-client/index.js';
import { formatBytes } from '../contract/http-client/index.js';
import { createJsonReader, type JsonReader } from '../contract/http-client/index.js';
import type { ListedMarkets } from '../contract/checks/index.js';
import { checkEncoding, checkSingleBody, checkStatus, createListPageChecker, type CheckContext, type ListPage, type ListPageChecker, type ResponseFacts } from '../contract/checks/index.js';
import { checkUtf8 } from '../contract/checks/index.js';

/** One upstream answer to check, as the proxy passes it on. */
export interface CheckedAnswer {
  /** Path and query as the client asked (relative to the proxy's root). */
  request: string;
  /** The market id of `GET /markets/{id}`; undefined for the list. */
  marketId: string | undefined;
  status: number;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** The client's request carried a validator (`If-None-Match`, `If-Modified-Since`). */
  conditional: boolean;
}

/** What a check found out, once the body ended. */
export interface CheckOutcome {
  /** The list page, when the answer was a list whose market array was found. */
  page?: ListPage;
  /** The market, when the answer was a valid single market (not echoing a credential). */
  market?: Market;
}

/** Receives the body bytes as they are passed to the client; `end` judges them. */
export interface ExchangeCheck {
  write(chunk: Buffer): void;
  /** The body ended; resolves once decoding and the checks are done. */
  end(): Promise<CheckOutcome>;
  /** The exchange broke (client gone, upstream cut): stop, report nothing more. */
  abort(): void;
}

/**
 * Checks an upstream answer while it streams to the client: the body is decoded from its
 * Content-Encoding by zlib streams (off the event loop, so one client's big body never holds up
 * another's), counted against `maxBodyBytes` (decompressed), and read by the same streaming JSON
 * reader and checks as `check`: a list page item by item (nothing kept but the compact listing),
 * a single market as one value. An answer it cannot decode or that is over the limit is an error
 * finding; the client still gets every byte unchanged.
 */
export function createExchangeCheck(answer: CheckedAnswer, ctx: CheckContext, listed: ListedMarkets, maxBodyBytes: number, redactor: Redactor): ExchangeCheck {
  const facts: ResponseFacts = { request: answer.request, status: answer.status, contentType: answer.contentType, conditional: answer.conditional };
  const endpoint = answer.marketId === undefined ? LIST_ENDPOINT : SINGLE_ENDPOINT;
  const text = new BodyText();
  const parts: string[] = [];
  const twoHundred = answer.status >= 200 && answer.status <= 299;
  const listChecker: ListPageChecker | undefined = twoHundred && answer.marketId === undefined ? createListPageChecker(facts, ctx, listed, 'proxy') : undefined;
  const reader: JsonReader | undefined = listChecker ? createJsonReader('list', listChecker) : undefined;
  let failed: string | undefined;
  let stopped = false;
  let rawBytes = 0;

  const fail = (code: 'body-too-large' | 'undecodable-body', reason: string) => {
    if (failed !== undefined || stopped) return;
    failed = reason;
    const expected = code === 'body-too-large' ? `a body within --max-body-mb (${formatBytes(maxBodyBytes)})` : 'a body in a content coding that decodes (gzip, br, deflate)';
    ctx.sink.add({ severity: 'error', code, endpoint, pointerTemplate: '', expected, example: { ...(answer.marketId === undefined ? {} : { marketId: answer.marketId }), pointer: '', found: reason, request: answer.request } });
  };
  const consume = (chunk: Buffer) => {
    if (failed !== undefined || stopped) return;
    if (text.bytes + chunk.length > maxBodyBytes) {
      fail('body-too-large', `the body is larger than the limit of ${formatBytes(maxBodyBytes)} (--max-body-mb; decompressed bytes count); not checked`);
      return;
    }
    const decoded = text.write(chunk);
    if (reader) reader.write(decoded);
    else parts.push(decoded);
  };

  const chain = contentDecoders(answer.contentEncoding);
  if ('unsupported' in chain) fail('undecodable-body', unsupportedCodingReason(answer.contentEncoding, chain.unsupported));
  const { decoders, decoded } = pipeDecoders(chain, consume, (error) => {
    if ('codings' in chain) fail('undecodable-body', decodeFailureReason(chain.codings, error));
  });
  const first = decoders[0];

  return {
    write(chunk) {
      if (failed !== undefined || stopped) return;
      rawBytes += chunk.length;
      if (rawBytes > maxBodyBytes) {
        fail('body-too-large', `the body is larger than the limit of ${formatBytes(maxBodyBytes)} (--max-body-mb); not checked`);
        for (const d of decoders) d.destroy();
        return;
      }
      if (first) first.write(chunk);
      else consume(chunk);
    },
    async end() {
      if (first && failed === undefined && !stopped) first.end();
      await decoded;
      if (stopped || failed !== undefined) {
        for (const d of decoders) d.destroy();
        return {};
      }
      return judgeBody(answer, { facts, text, parts, reader, listChecker }, ctx, listed, redactor);
    },
    abort() {
      stopped = true;
      for (const d of decoders) d.destroy();
    },
  };
}

/** The decoder streams of a content coding, piped in order, with the decoded text going to `consume`; `decoded` resolves at the end or on the first error. */
function pipeDecoders(chain: ReturnType<typeof contentDecoders>, consume: (chunk: Buffer) => void, onError: (error: Error) => void): { decoders: Transform[]; decoded: Promise<void> } {
  const decoders: Transform[] = 'decoders' in chain ? chain.decoders : [];
  const first = decoders[0];
  const last = decoders[decoders.length - 1];
  if (!first || !last) return { decoders, decoded: Promise.resolve() };
  for (let k = 1; k < decoders.length; k++) (decoders[k - 1] as Transform).pipe(decoders[k] as Transform);
  const decoded = new Promise<void>((resolve) => {
    last.on('data', consume);
    last.once('end', resolve);
    for (const d of decoders) {
      d.once('error', (error) => {
        onError(error);
        resolve();
      });
    }
  });
  return { decoders, decoded };
}

/** The body judged once it ended: the status (a non-2xx answer), the encoding, then the list page or the single market. */
function judgeBody(
  answer: CheckedAnswer, read: { facts: ResponseFacts; text: BodyText; parts: string[]; reader: JsonReader | undefined; listChecker: ListPageChecker | undefined },
  ctx: CheckContext, listed: ListedMarkets, redactor: Redactor,
): CheckOutcome {
  const { facts, text, parts, reader, listChecker } = read;
  const endpoint = answer.marketId === undefined ? LIST_ENDPOINT : SINGLE_ENDPOINT;
  const twoHundred = answer.status >= 200 && answer.status <= 299;
  const tail = text.end();
  if (!twoHundred) {
    if (answer.marketId === undefined || listed.has(answer.marketId)) checkStatus(facts, { text: parts.join('') + tail, bytes: text.bytes }, ctx, endpoint, endpoint === LIST_ENDPOINT ? 'the market list' : 'the listed market', answer.marketId);
    return {};
  }
  checkEncoding(facts, text.bom, ctx, endpoint, answer.marketId);
  if (!checkUtf8(text.notUtf8At, ctx.sink, endpoint, answer.request, answer.marketId) && answer.marketId !== undefined) return {};
  if (reader && listChecker) {
    reader.write(tail);
    const page = listChecker.finish(reader.end());
    return page ? { page } : {};
  }
  return judgeSingle(answer, facts, parts.join('') + tail, ctx, listed, redactor);
}

/** A single market's body judged; the market is kept for --record unless it echoes a credential the client sent. */
function judgeSingle(answer: CheckedAnswer, facts: ResponseFacts, body: string, ctx: CheckContext, listed: ListedMarkets, redactor: Redactor): CheckOutcome {
  const id = answer.marketId as string;
  const market = checkSingleBody(facts, body, id, listed.get(id), ctx);
  if (!market) return {};
  if (redactor.active && redactor.contains(JSON.stringify(market))) {
    // A body that echoes a client's credential must never become a fixture.
    ctx.sink.add({ severity: 'warning', code: 'header-echo', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', expected: 'a body that does not contain a request credential (not recorded)', example: { marketId: id, pointer: '', found: 'a credential the client sent ([redacted])', request: answer.request } });
    return {};
  }
  return { market };
}
