import { MarketStubError, optionError, showValue } from '../floor/market-stub-error.js';
import { createRedactor } from '../floor/redact-secrets.js';
import type { ControlAnswer as AdminAnswer, ControlRequest as AdminRequest } from '../runtime/control-table.js';
import { errorFromAdminBody, unauthorized, type AdminCall } from './admin-error-body.js';

/** Where and how the remote client talks to one stub's admin API. */
export interface AdminTransportOptions {
  /** Base URL of the stub without a trailing slash (`http://127.0.0.1:4010`, or with a path prefix behind a proxy). */
  base: string;
  adminToken: string | undefined;
  /** Longest wait for one call (connect, answer and body), ms. */
  timeoutMs: number;
  /** Largest response body read, bytes; larger ones are refused while reading. */
  maxResponseBytes: number;
}

export type AdminTransport = (where: string, request: AdminRequest) => Promise<AdminAnswer>;

const STATE_CHANGING = new Set(['PUT', 'POST', 'PATCH']);

/**
 * The remote client's one way to the admin API, over `fetch`: JSON bodies with their content
 * type, `Authorization: Bearer` only on requests to the stub's own URL (redirects are never
 * followed, so the token cannot be carried to another origin), a time limit per call and a
 * bounded response body. Every failure is a MarketStubError named after `where`: the admin
 * API's own error (same code and fields as in process), UNAUTHORIZED, LIMIT_EXCEEDED for an
 * oversized answer, or STUB_UNREACHABLE (no connection, time-out, redirect, or an answer that is
 * not the admin API's) naming the URL, never the token.
 */
export function createAdminTransport(options: AdminTransportOptions): AdminTransport {
  const send = sendOnce(options);
  const token = options.adminToken;
  if (token === undefined) return send;
  return (where, request) => send(where, request).catch((error: unknown) => {
    throw error instanceof MarketStubError ? withoutSecret(error, token) : error;
  });
}

function sendOnce(options: AdminTransportOptions): AdminTransport {
  return async (where, request) => {
    const url = `${options.base}/__stub${request.path}`;
    const call: AdminCall = { where, request: `${request.method} ${url}`, tokenSent: options.adminToken !== undefined };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.adminToken !== undefined) headers['authorization'] = `Bearer ${options.adminToken}`;
    let body: string | undefined;
    if (STATE_CHANGING.has(request.method)) headers['content-type'] = request.contentType ?? 'application/json';
    if (request.body !== undefined) body = toJson(where, request.bodyOption ?? 'body', request.body, 'argument' in request ? request.argument : request.body);
    const query = request.query?.toString();
    const signal = AbortSignal.timeout(options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(query ? `${url}?${query}` : url, { method: request.method, headers, body, redirect: 'manual', signal });
    } catch (error) {
      throw unreachable(call, options, connectReason(error, options.timeoutMs), error);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get('location');
      throw unreachable(call, options, `it answered ${response.status} with a redirect${location ? ` to ${location}` : ''}, which the client does not follow (the admin token goes to ${options.base} only); connect to the stub's own URL`);
    }
    const text = await readBounded(response, call, options, signal);
    const parsed = parseJson(text);
    if (response.ok) {
      if (parsed.ok) return { status: response.status, body: parsed.value };
      throw unreachable(call, options, `it answered ${response.status} with a body that is not JSON (${describeBody(response, text)}); is this the admin API of a market-stub?`);
    }
    if (response.status === 401) throw unauthorized(call);
    const mapped = parsed.ok ? errorFromAdminBody(call, response.status, parsed.value) : undefined;
    if (mapped) throw mapped;
    throw unreachable(call, options, `it answered ${response.status} without an admin API error (${describeBody(response, text)}); is the admin API on (serve --admin on) and is this a market-stub?`);
  };
}

/**
 * The error with every form of the token shown as `[redacted]` (createRedactor: the one redaction of
 * logs, reports and answers): a server that echoes what it received (a misdirected URL, a debugging
 * proxy) cannot make the client put the token into a message.
 */
function withoutSecret(error: MarketStubError, token: string): MarketStubError {
  const redactor = createRedactor([token]);
  const fields = [error.message, error.option, error.expected, error.found, ...error.findings.flatMap((f) => [f.pointer, f.expected, f.found, f.message])];
  if (!fields.some((text) => text !== undefined && redactor.contains(text))) return error;
  const hide = (text: string | undefined) => (text === undefined ? undefined : redactor.redact(text));
  return new MarketStubError({
    code: error.code, where: error.where, message: hide(error.message) ?? '',
    ...(error.option === undefined ? {} : { option: hide(error.option) }),
    ...(error.expected === undefined ? {} : { expected: hide(error.expected) }),
    ...(error.found === undefined ? {} : { foundText: hide(error.found) }),
    ...(error.marketId === undefined ? {} : { marketId: error.marketId }),
    findings: error.findings.map((f) => ({ pointer: hide(f.pointer) ?? '', expected: hide(f.expected) ?? '', found: hide(f.found) ?? '', message: hide(f.message) ?? '' })),
  });
}

/** JSON text of a body, or OPTION_INVALID for what JSON cannot carry (BigInt, cycles, NaN, Infinity). */
function toJson(where: string, option: string, value: unknown, shown: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) throw new RangeError('not finite');
      return v;
    });
  } catch {
    text = undefined;
  }
  if (text === undefined) throw optionError(where, option, 'a JSON value (no BigInt, NaN, Infinity, functions or cycles)', shown);
  return text;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Reads the body up to `maxResponseBytes` (a declared Content-Length over it is refused before reading). */
async function readBounded(response: Response, call: AdminCall, options: AdminTransportOptions, signal: AbortSignal): Promise<string> {
  const limit = options.maxResponseBytes;
  const tooLarge = (size: string) => new MarketStubError({
    code: 'LIMIT_EXCEEDED', where: call.where, option: 'maxResponseBytes', expected: `an answer of at most ${limit} bytes`, foundText: size,
    message: `${call.where}: ${call.request} answered more than ${limit} bytes (${size}); raise connectMarketStub's maxResponseBytes or ask for less (a journal filter with limit)`,
  });
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel();
    throw tooLarge(`${declared} bytes declared`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel();
        throw tooLarge(`over ${limit} bytes read`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof MarketStubError) throw error;
    throw unreachable(call, options, connectReason(signal.aborted ? signal.reason : error, options.timeoutMs), error);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function unreachable(call: AdminCall, options: AdminTransportOptions, reason: string, cause?: unknown): MarketStubError {
  return new MarketStubError({ code: 'STUB_UNREACHABLE', where: call.where, message: `${call.where}: ${call.request}: ${reason}`, ...(cause === undefined ? {} : { cause }), foundText: options.base });
}

/** Why fetch failed, in words: `connection refused (ECONNREFUSED): is the stub running at this URL?`. */
function connectReason(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; cause?: { code?: string; message?: string }; code?: string; message?: string } | undefined;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs} ms (connectMarketStub's timeoutMs); is the stub running and reachable from here?`;
  const code = e?.cause?.code ?? e?.code;
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'the host name does not resolve',
    EAI_AGAIN: 'the host name does not resolve (temporary DNS failure)',
    ECONNRESET: 'the connection was reset',
    EHOSTUNREACH: 'no route to the host',
    ETIMEDOUT: 'the connection timed out',
    UND_ERR_SOCKET: 'the connection closed before an answer',
  };
  const what = code === undefined ? (e?.cause?.message ?? e?.message ?? showValue(error)) : `${words[code] ?? e?.cause?.message ?? 'network error'} (${code})`;
  return `cannot reach the stub: ${what}; is it running at this URL and reachable from here?`;
}

function describeBody(response: Response, text: string): string {
  const type = response.headers.get('content-type') ?? 'no content-type';
  const start = text.replace(/\s+/g, ' ').trim().slice(0, 120);
  return start ? `${type}: ${start}${text.length > 120 ? '…' : ''}` : `${type}, empty body`;
}
