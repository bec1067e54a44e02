/** An IPv4 address in dotted-decimal form, no leading zeros (RFC 3986 §3.2.2 `IPv4address`). */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;

/**
 * Whether a host name is an IP literal: an IPv4 address, or an IPv6 address (RFC 4291 §2.2) as
 * the WHATWG URL parser accepts one between brackets (the same parser every runtime has).
 */
export function isIpLiteral(host: string): boolean {
  if (IPV4.test(host)) return true;
  if (!host.includes(':') || !/^[0-9a-f:.]+$/i.test(host)) return false;
  try {
    new URL(`http://[${host}]/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a request's `Host` may reach the admin API (DNS-rebinding defence, the rule Vite's
 * `server.allowedHosts` uses): IP literals (v4, `[v6]`), `localhost` and `*.localhost`
 * (RFC 6761 §6.3), and the names in `allowed`: exact (`market-stub`), a leading dot for a domain
 * and its subdomains (`.ci.internal`), or `*` for any. A missing Host (HTTP/1.0) is allowed: no
 * browser sends one. A rebinding page reaches the stub under the attacker's domain name, which
 * is none of these.
 */
export function hostAllowed(hostHeader: string | undefined, allowed: readonly string[]): boolean {
  if (hostHeader === undefined || hostHeader === '') return true;
  const host = hostName(hostHeader);
  if (host === undefined) return false;
  if (isIpLiteral(host) || host === 'localhost' || host.endsWith('.localhost')) return true;
  return allowed.some((entry) => {
    const name = entry.toLowerCase();
    if (name === '*') return true;
    if (name.startsWith('.')) return host === name.slice(1) || host.endsWith(name);
    return host === name;
  });
}

/** The host name of a Host header (RFC 9110 §7.2: `uri-host [":" port]`), lower-cased, without a trailing dot; undefined when malformed. */
export function hostName(hostHeader: string): string | undefined {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    const rest = value.slice(end + 1);
    if (end === -1 || (rest !== '' && !/^:\d{1,5}$/.test(rest))) return undefined;
    return value.slice(1, end);
  }
  const m = /^([^:]+)(?::\d{1,5})?$/.exec(value);
  return m?.[1]?.replace(/\.$/, '');
}

/**
 * Whether an `Origin` header is foreign to the request: present and not the origin the request was
 * sent to (same scheme-less host and port as `Host`). `null` (sandboxed pages, files) is foreign.
 * Non-browser clients send no Origin.
 */
export function foreignOrigin(origin: string | undefined, hostHeader: string | undefined): boolean {
  if (origin === undefined) return false;
  try {
    const url = new URL(origin);
    return url.host.toLowerCase() !== (hostHeader ?? '').trim().toLowerCase();
  } catch {
    return true;
  }
}

/** Media types a state-changing admin request may carry (RFC 8259 §11; RFC 7396 §4 for PATCH): none of them a browser sends cross-site without a preflight. */
export const ADMIN_MEDIA_TYPES: readonly string[] = ['application/json', 'application/merge-patch+json'];

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
