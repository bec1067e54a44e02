import { BlockList, isIP } from 'node:net';
import { ContractRunError } from './contract-run-error.js';

/**
 * Which forward proxy a request takes, read as curl reads its options and environment
 * (curl's manual, "ENVIRONMENT" and `--noproxy`; docs/networks.md has the table):
 * - `--proxy` wins over every variable; `--noproxy` over `no_proxy`/`NO_PROXY`;
 * - an `http://` URL: `http_proxy` only (curl ignores upper-case `HTTP_PROXY`, the "httpoxy" CGI
 *   problem); an `https://` URL: `https_proxy`, then `HTTPS_PROXY`; then for either `all_proxy`,
 *   then `ALL_PROXY`; lower case first, an empty value unset;
 * - `no_proxy`, then `NO_PROXY`: a lone `*` bypasses every host; entries separated by commas or
 *   white space; a name matches itself and its subdomains, a leading `.` (or `*.`) optional; an IP
 *   address matches itself, or a range in CIDR notation (`10.0.0.0/8`, `fd00::/8`, curl 7.86+); an
 *   IPv6 address bracketed or not; `host:port` matches that port only (curl compares no port: the
 *   one point where market-stub reads more, as undici and Go do);
 * - a proxy URL of a scheme market-stub cannot speak (`socks5://`…) matters only for a request
 *   that would use it: a host NO_PROXY covers goes directly, as with curl.
 */
export type ProxyRoute =
  | { kind: 'direct' }
  | { kind: 'proxy'; url: URL; source: string }
  | { kind: 'unsupported'; scheme: string; source: string };

/** The settings a choice is made from. */
export interface ProxySettings {
  /** `--proxy` (wins over the environment). */
  proxy?: string | undefined;
  /** `--noproxy` / the library's `noProxy` (wins over the environment's). */
  noProxy?: string | undefined;
  /** The environment read for the variables (none unless given). */
  env: Readonly<Record<string, string | undefined>>;
}

/** A proxy setting as given: its value and where it came from (`--proxy`, `HTTPS_PROXY`…). */
interface Setting {
  value: string;
  source: string;
}

/** The proxy choice of one run: the route of each URL, and every proxy URL it may use. */
export interface ProxyChoice {
  /** The route a request to `url` takes. */
  route(url: URL): ProxyRoute;
  /** Whether any proxy is set at all (else every request goes directly). */
  readonly any: boolean;
}

/**
 * Reads the proxy settings once; a proxy URL that is not a URL is refused at once, an unsupported
 * scheme only where a request would use it (ProxyRoute `unsupported`).
 * @throws ContractRunError OPTION_INVALID for a proxy value that is not a URL (its value never shown: it may hold a password).
 */
export function readProxyChoice(settings: ProxySettings): ProxyChoice {
  const pick = (...names: string[]): Setting | undefined => {
    for (const name of names) {
      const value = settings.env[name];
      if (value !== undefined && value.trim() !== '') return { value: value.trim(), source: name };
    }
    return undefined;
  };
  const given = settings.proxy !== undefined && settings.proxy.trim() !== '' ? { value: settings.proxy.trim(), source: '--proxy' } : undefined;
  const http = given ?? pick('http_proxy', 'all_proxy', 'ALL_PROXY');
  const https = given ?? pick('https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY');
  const routes = { 'http:': http ? settingRoute(http) : undefined, 'https:': https ? settingRoute(https) : undefined };
  const bypass = noProxyMatcher(settings.noProxy ?? pick('no_proxy', 'NO_PROXY')?.value ?? '');
  return {
    any: routes['http:'] !== undefined || routes['https:'] !== undefined,
    route(url) {
      const route = url.protocol === 'https:' ? routes['https:'] : routes['http:'];
      return route === undefined || bypass(url) ? { kind: 'direct' } : route;
    },
  };
}

/** `http://user:pw@host:3128` → a proxy route; `host:3128` → `http://host:3128` (as curl); `socks5://…` → unsupported. */
function settingRoute(setting: Setting): ProxyRoute {
  const text = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(setting.value) ? setting.value : `http://${setting.value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ContractRunError('OPTION_INVALID', `${setting.source}: the proxy is not a URL; give one like http://proxy.internal:3128 (its value is not shown: it may hold a password).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'unsupported', scheme: url.protocol, source: setting.source };
  return { kind: 'proxy', url, source: setting.source };
}

/** The error for a request that would go through a proxy market-stub cannot speak. */
export function unsupportedProxyError(route: Extract<ProxyRoute, { kind: 'unsupported' }>, url: URL): ContractRunError {
  return new ContractRunError('OPTION_INVALID', `${route.source}: ${route.scheme} proxies are not supported, and ${url.host} is not in NO_PROXY; give an http:// or https:// forward proxy, or add the host to NO_PROXY (or --noproxy) to reach it directly.`);
}

/**
 * A NO_PROXY value as a matcher of URLs (rules above, readProxyChoice). Names are compared
 * without case and without a trailing dot; addresses by value (`::1` and `[::1]` alike), ranges
 * with node:net's BlockList.
 */
export function noProxyMatcher(value: string): (url: URL) => boolean {
  if (value.trim() === '*') return () => true;
  const names: Array<{ name: string; port: number }> = [];
  const ranges = new BlockList();
  let anyRange = false;
  for (const raw of value.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '' ) continue;
    const cidr = /^\[?([0-9a-f:.]+)\]?\/(\d{1,3})$/.exec(entry);
    const family = cidr ? isIP(cidr[1] ?? '') : 0;
    if (cidr && family !== 0) {
      const bits = Number(cidr[2]);
      if (bits <= (family === 4 ? 32 : 128)) {
        ranges.addSubnet(cidr[1] ?? '', bits, family === 4 ? 'ipv4' : 'ipv6');
        anyRange = true;
      }
      continue;
    }
    const { host, port } = splitPort(entry);
    names.push({ name: host.replace(/^\*?\./, '').replace(/\.$/, ''), port });
  }
  if (names.length === 0 && !anyRange) return () => false;
  return (url) => {
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const family = isIP(host);
    if (anyRange && family !== 0 && ranges.check(host, family === 4 ? 'ipv4' : 'ipv6')) return true;
    return names.some((n) => (n.port === 0 || n.port === port) && (family !== 0 ? sameAddress(host, n.name, family) : host === n.name || host.endsWith(`.${n.name}`)));
  };
}

/** `host:8080` → host and port; `[::1]:8080` → `::1` and 8080; a bare IPv6 address keeps its colons (port 0: any). */
function splitPort(entry: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1] ?? '', port: Number(bracketed[2] ?? 0) };
  if (isIP(entry) === 6) return { host: entry, port: 0 };
  const m = /^(.+):(\d+)$/.exec(entry);
  return m ? { host: m[1] ?? '', port: Number(m[2]) } : { host: entry, port: 0 };
}

/** Two addresses of one family equal by value (`::1` and `0:0::1`). */
function sameAddress(a: string, b: string, family: number): boolean {
  if (isIP(b) !== family) return false;
  const list = new BlockList();
  list.addAddress(b, family === 4 ? 'ipv4' : 'ipv6');
  return list.check(a, family === 4 ? 'ipv4' : 'ipv6');
}
