import { EventEmitter } from 'node:events';
import { STATUS_CODES, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type * as UndiciModule from 'undici';
import type { Dispatcher } from 'undici';
import { proxyCause, type ChosenProxy } from '../contract/http-client/index.js';

/** What the recording proxy reads of an upstream answer (the fields of node:http's IncomingMessage it uses). */
export interface UpstreamAnswer extends Readable {
  statusCode: number;
  statusMessage: string;
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
}

/**
 * One upstream request sent through a forward proxy with undici (its EnvHttpProxyAgent: absolute
 * form for http://, a CONNECT tunnel for https://), shaped like node:http's ClientRequest as far
 * as the recording proxy uses one: a writable for the client's body, `response` and `error`
 * events, `setTimeout` (until the answer's head) and `destroy`.
 */
export class ProxiedUpstreamRequest extends PassThrough {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly events = new EventEmitter();

  constructor(undici: typeof UndiciModule, dispatcher: Dispatcher, target: URL, method: string, headers: string[], proxy: ChosenProxy) {
    super();
    const bodyless = method === 'GET' || method === 'HEAD';
    if (bodyless) this.resume();
    const send = () => undici.request(target, { method: method as Dispatcher.HttpMethod, headers, dispatcher, signal: this.controller.signal, ...(bodyless ? {} : { body: this as Readable }) });
    const start = bodyless ? new Promise<void>((resolve) => this.once('finish', resolve)) : Promise.resolve();
    void start.then(send).then((answer) => {
      clearTimeout(this.timer);
      this.events.emit('response', toAnswer(answer));
    }, (error: unknown) => {
      clearTimeout(this.timer);
      if (this.controller.signal.aborted && this.controller.signal.reason === undefined) return;
      const e = error as { code?: string; message?: string };
      const reason = proxyCause(error, e.code === 'ECONNREFUSED' ? 'refused' : 'other', e.message ?? String(error), proxy);
      this.events.emit('error', Object.assign(new Error(reason ?? `${e.message ?? String(error)} (through the forward proxy ${proxy.display}, ${proxy.source})`), { code: e.code ?? 'EPROXY' }));
    });
  }

  /** `response` (an UpstreamAnswer) or `error`, as ClientRequest emits them. */
  onUpstream(event: 'response' | 'error', listener: (value: never) => void): this {
    this.events.on(event, listener as (value: unknown) => void);
    return this;
  }

  /** Fails the request with `callback` when no answer head arrived within `ms`. */
  setUpstreamTimeout(ms: number, callback: () => void): void {
    this.timer = setTimeout(callback, ms);
  }

  /** Stops the request; with an error, reports it (`error`), as ClientRequest.destroy does. */
  abort(error?: Error): void {
    clearTimeout(this.timer);
    this.controller.abort(error);
    if (error) this.events.emit('error', error);
  }
}

/** A request to the upstream: node:http's own, or one through a forward proxy; the recording proxy uses only this. */
export interface UpstreamCall {
  sink: NodeJS.WritableStream;
  onResponse(listener: (answer: UpstreamAnswer) => void): void;
  onError(listener: (error: NodeJS.ErrnoException) => void): void;
  setTimeout(ms: number, callback: () => void): void;
  destroy(error?: Error): void;
}

/** node:http's ClientRequest as an UpstreamCall. */
export function directCall(outgoing: ClientRequest): UpstreamCall {
  return {
    sink: outgoing,
    onResponse: (listener) => outgoing.on('response', (answer) => listener(answer as UpstreamAnswer)),
    onError: (listener) => outgoing.on('error', listener),
    setTimeout: (ms, callback) => outgoing.setTimeout(ms, callback),
    destroy: (error) => outgoing.destroy(error),
  };
}

/** A ProxiedUpstreamRequest as an UpstreamCall. */
export function proxiedCall(outgoing: ProxiedUpstreamRequest): UpstreamCall {
  return {
    sink: outgoing,
    onResponse: (listener) => outgoing.onUpstream('response', listener as (value: never) => void),
    onError: (listener) => outgoing.onUpstream('error', listener as (value: never) => void),
    setTimeout: (ms, callback) => outgoing.setUpstreamTimeout(ms, callback),
    destroy: (error) => outgoing.abort(error),
  };
}

function toAnswer(answer: Dispatcher.ResponseData): UpstreamAnswer {
  const body = answer.body as unknown as UpstreamAnswer;
  const rawHeaders: string[] = [];
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) rawHeaders.push(name, item);
  }
  body.statusCode = answer.statusCode;
  body.statusMessage = STATUS_CODES[answer.statusCode] ?? '';
  body.rawHeaders = rawHeaders;
  body.headers = answer.headers as IncomingHttpHeaders;
  // node:http's answer says `aborted` when the upstream closes mid-body; undici's body errors.
  body.once('error', () => body.emit('aborted'));
  return body;
}
