/**
 * Request header fields an admin request may carry at most once, because the admin API decides
 * on their one value: `Host` (RFC 9112 §3.2: a server MUST answer 400 to a request with more than
 * one Host field line), `Authorization` (the token), `Origin` (the cross-site check),
 * `Content-Type` (the media type check) and `Content-Length` (RFC 9112 §6.3). None of them is a
 * list-based field (RFC 9110 §5.3: only those may be repeated), and Node keeps the first of
 * several Host, Authorization or Content-Type lines silently, so a second could pass one check and
 * mean another thing to a proxy in front.
 */
export const SINGLETON_HEADERS: readonly string[] = ['host', 'authorization', 'origin', 'content-type', 'content-length'];

/** The first singleton field name that occurs more than once in `rawHeaders` (node:http's name/value pairs), lower-cased; undefined when none does. */
export function repeatedSingleton(rawHeaders: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    if (!SINGLETON_HEADERS.includes(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}
