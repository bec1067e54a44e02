import { createSecureContext } from 'node:tls';
import type * as UndiciModule from 'undici';
import type { Dispatcher } from 'undici';
import { ContractRunError } from './contract-run-error.js';
import { readProxyChoice, unsupportedProxyError, type ProxyChoice } from './proxy-choice.js';
import type { ClientTls } from './tls-failure.js';

/**
 * How check, record and proxy reach a deployment on a real network: through an HTTP forward proxy
 * (undici's EnvHttpProxyAgent, which picks a ProxyAgent or a plain Agent per origin) and with a
 * client certificate for mutual TLS. One definition, read by the crawl's client and by the
 * recording proxy's upstream requests.
 */
export interface OutgoingNetwork {
  /**
   * A forward proxy for every request, `http://[user:password@]host:port` (`--proxy`); wins over
   * the environment. Its user and password go only to the proxy, as `Proxy-Authorization: Basic`
   * (RFC 9110 §11.7.2). A value without a scheme is taken as `http://`, as curl does.
   */
  proxy?: string;
  /**
   * The environment whose `http_proxy`, `https_proxy`, `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`,
   * `no_proxy` and `NO_PROXY` are honoured as curl reads them (proxy-choice.ts; curl ignores
   * upper-case `HTTP_PROXY`, and so does market-stub).
   * The CLI passes its own; a library caller passes `process.env` to behave as curl. @default none
   */
  proxyEnv?: Readonly<Record<string, string | undefined>>;
  /** Hosts reached directly (NO_PROXY syntax: `a.example,.b.example,host:port,10.0.0.0/8,::1,*`); wins over the environment's, as curl's `--noproxy`. */
  noProxy?: string;
  /** Client certificate, PEM text (`--cert`). */
  cert?: string;
  /** The certificate's private key, PEM text (`--key`); never shown anywhere. */
  key?: string;
  /** Passphrase of an encrypted key (`--pass`); never shown anywhere. */
  passphrase?: string;
  /** Certificate authorities to trust instead of Node's bundled ones, PEM text (`--cacert`). */
  ca?: string;
}

/** The proxy a request went through: its URL for messages (no password), and where it was set. */
export interface ChosenProxy {
  /** `http://proxy.internal:3128/` without user name and password. */
  display: string;
  /** `--proxy`, `HTTPS_PROXY`, …: where the value came from. */
  source: string;
}

/** A network for one crawl or proxy: the proxy chosen for a URL, and undici dispatchers for it. */
export interface OutgoingAgent {
  /**
   * The proxy a request to `url` goes through, or undefined when it goes directly (no proxy, or NO_PROXY matched).
   * @throws ContractRunError OPTION_INVALID when it would go through a proxy of a scheme market-stub cannot speak (`socks5://`).
   */
  proxyFor(url: URL): ChosenProxy | undefined;
  /** The client's TLS material (for a diagnosis of a closed TLS connection: tls-failure.ts). */
  readonly tls: ClientTls;
  /** A new dispatcher over this network with these pool settings. */
  dispatcher(undici: typeof UndiciModule, pool: PoolSettings): Dispatcher;
}

/** undici Agent settings of one dispatcher. */
export interface PoolSettings {
  /** Connections per origin (undefined: undici's default, unlimited). */
  connections?: number;
  /** 0 disables keep-alive (a fresh connection per request). */
  pipelining?: number;
  keepAliveTimeout?: number;
  /** Time limit to connect (TCP and TLS), ms. */
  connectTimeoutMs: number;
}

/**
 * Reads the network options: proxies chosen as curl chooses them (proxy-choice.ts, the table in
 * docs/networks.md), TLS material kept as given. A request's route is the one every surface uses:
 * the crawl's client, `record` and the recording proxy's upstream requests.
 * @throws ContractRunError OPTION_INVALID for a proxy value that is not a URL (naming where it came from, never its password).
 */
export function createOutgoingAgent(network: OutgoingNetwork = {}): OutgoingAgent {
  const choice = readProxyChoice({ proxy: network.proxy, noProxy: network.noProxy, env: network.proxyEnv ?? {} });
  const tls = tlsOptions(network);
  return {
    tls,
    proxyFor(url) {
      const route = choice.route(url);
      if (route.kind === 'direct') return undefined;
      if (route.kind === 'unsupported') throw unsupportedProxyError(route, url);
      return { display: withoutCredentials(route.url), source: route.source };
    },
    dispatcher(undici, pool) {
      const { connectTimeoutMs, ...agentOptions } = pool;
      const connect = { timeout: connectTimeoutMs, ...tls };
      if (!choice.any) return new undici.Agent({ ...agentOptions, connect });
      return routingDispatcher(undici, choice, agentOptions, connect);
    },
  };
}

/**
 * A dispatcher that sends each request the way its route says (proxy-choice.ts): directly, or
 * through a ProxyAgent per proxy URL, made on first use. Plain http:// requests go in absolute
 * form (RFC 9112 §3.2.2), https:// ones through CONNECT (RFC 9110 §9.3.6). A route through an
 * unsupported proxy never gets here: proxyFor refuses it before the request.
 */
function routingDispatcher(undici: typeof UndiciModule, choice: ProxyChoice, agentOptions: Omit<PoolSettings, 'connectTimeoutMs'>, connect: Record<string, unknown>): Dispatcher {
  const direct = new undici.Agent({ ...agentOptions, connect });
  const proxies = new Map<string, Dispatcher>();
  const forOrigin = (origin: string): Dispatcher => {
    const route = choice.route(new URL(origin));
    if (route.kind !== 'proxy') return direct;
    let agent = proxies.get(route.url.href);
    if (!agent) proxies.set(route.url.href, (agent = new undici.ProxyAgent({ ...agentOptions, uri: route.url.href, proxyTunnel: false, connect, requestTls: connect })));
    return agent;
  };
  const all = () => [direct, ...proxies.values()];
  class RoutingDispatcher extends undici.Dispatcher {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      return forOrigin(String(options.origin)).dispatch(options, handler);
    }
    override close(): Promise<void>;
    override close(callback: () => void): void;
    override close(callback?: () => void): Promise<void> | void {
      const closed = Promise.all(all().map((d) => d.close())).then(() => undefined);
      if (!callback) return closed;
      void closed.then(callback);
    }
    override destroy(): Promise<void>;
    override destroy(error: Error | null): Promise<void>;
    override destroy(callback: () => void): void;
    override destroy(error: Error | null, callback: () => void): void;
    override destroy(error?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
      const cause = typeof error === 'function' ? null : (error ?? null);
      const done = typeof error === 'function' ? error : callback;
      const destroyed = Promise.all(all().map((d) => d.destroy(cause))).then(() => undefined);
      if (!done) return destroyed;
      void destroyed.then(done);
    }
  }
  return new RoutingDispatcher();
}

/** The values of a network that are secrets, to redact at every sink: proxy passwords (every proxy variable's) and the key's passphrase (the key itself is never written anywhere). */
export function networkSecrets(network: OutgoingNetwork): string[] {
  const secrets: string[] = [];
  const env = network.proxyEnv ?? {};
  for (const value of [network.proxy, env['http_proxy'], env['HTTP_PROXY'], env['https_proxy'], env['HTTPS_PROXY'], env['all_proxy'], env['ALL_PROXY']]) {
    if (value === undefined) continue;
    try {
      const url = new URL(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value.trim()) ? value.trim() : `http://${value.trim()}`);
      if (url.password) secrets.push(url.password, decodeURIComponent(url.password));
    } catch {
      // Not a URL: readProxyChoice says so when it is used.
    }
  }
  if (network.passphrase !== undefined) secrets.push(network.passphrase);
  return secrets;
}

/** A proxy URL for messages: without user name and password. */
export function withoutCredentials(url: URL): string {
  const copy = new URL(url);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** The TLS material, checked once here (a key that does not match its certificate, a wrong passphrase) so no request goes out with it. */
function tlsOptions(network: OutgoingNetwork): ClientTls {
  const tls = {
    ...(network.cert !== undefined ? { cert: network.cert } : {}),
    ...(network.key !== undefined ? { key: network.key } : {}),
    ...(network.passphrase !== undefined ? { passphrase: network.passphrase } : {}),
    ...(network.ca !== undefined ? { ca: network.ca } : {}),
  };
  if ((tls.cert === undefined) !== (tls.key === undefined)) throw new ContractRunError('OPTION_INVALID', 'a client certificate needs both cert (--cert) and key (--key).');
  try {
    createSecureContext(tls);
  } catch (error) {
    throw new ContractRunError('OPTION_INVALID', `the client certificate cannot be used: ${tlsMaterialProblem(error)} (--cert, --key, --pass, --cacert); no request was sent.`);
  }
  return tls;
}

/** OpenSSL's complaint about TLS material, in words; never the material itself. */
function tlsMaterialProblem(error: unknown): string {
  const e = error as { code?: string; message?: string; reason?: string };
  const text = `${e.code ?? ''} ${e.reason ?? ''} ${e.message ?? ''}`;
  if (/KEY_VALUES_MISMATCH|values mismatch/i.test(text)) return 'the key (--key) does not belong to the certificate (--cert)';
  if (/bad decrypt|BAD_DECRYPT|bad password|interrupted or cancelled/i.test(text)) return 'the key is encrypted and the passphrase (--pass) is missing or wrong';
  if (/NO_START_LINE|no start line|PEM/i.test(text)) return 'a file is not PEM text of the expected kind (a certificate for --cert and --cacert, a private key for --key)';
  return `${(e.reason ?? e.message ?? 'unusable TLS material').split('\n')[0]}${e.code ? ` (${e.code})` : ''}`;
}

/**
 * Why a request through a forward proxy got no answer, when the proxy is the cause: it refused
 * the connection, cannot be resolved, asked for credentials (407, RFC 9110 §15.5.8) or refused
 * the CONNECT tunnel (any status but 2xx, RFC 9110 §9.3.6). Undefined when the cause is the
 * deployment's (a TLS failure inside the tunnel, a reset after the answer began).
 */
export function proxyCause(error: unknown, kind: string, reason: string, proxy: ChosenProxy): string | undefined {
  const message = (error as { message?: string } | undefined)?.message ?? '';
  const tunnel = /Proxy response \((\d{3})\) !== 200/.exec(message);
  const where = `the forward proxy ${proxy.display} (${proxy.source})`;
  if (tunnel?.[1] === '407' || /Proxy Authentication Required/.test(message)) return `${where} requires credentials (407 Proxy Authentication Required); give them in the proxy URL (http://user:password@host:port)`;
  if (tunnel) return `${where} refused the tunnel (CONNECT answered ${tunnel[1]})`;
  if (kind === 'refused' || kind === 'dns' || (kind === 'timeout' && /connect/i.test(reason))) return `${where} cannot be reached: ${reason}`;
  return undefined;
}
