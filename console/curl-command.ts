import type { JournalEntry } from './console-types.js';

/** Headers a curl command leaves to curl (it sends its own), and the hop-by-hop ones (RFC 9110 §7.6.1). */
const LEFT_TO_CURL = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'accept-encoding', 'te', 'upgrade']);

/** One POSIX shell word: single-quoted, a `'` inside as `'\''` (POSIX.1-2017 Shell Command Language §2.2.3). */
function quoted(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * "Copy as curl" for one journal entry: the request again, against `origin` (the stub this console
 * is served by), with its method, path, query and headers as journaled. A header whose value the
 * journal redacted is left out (its secret is not in the journal), and so are those curl sets itself.
 * @returns the command and the names of the headers left out for being redacted.
 */
export function curlCommand(entry: JournalEntry, origin: string): { command: string; redacted: string[] } {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(entry.query)) for (const one of Array.isArray(value) ? value : [value]) query.append(name, one);
  const search = query.toString();
  const words = ['curl', '--include'];
  if (entry.method === 'HEAD') words.push('--head');
  else if (entry.method !== 'GET') words.push('--request', quoted(entry.method));
  words.push(quoted(`${origin}${entry.path}${search === '' ? '' : `?${search}`}`));
  const redacted: string[] = [];
  for (const [name, value] of Object.entries(entry.headers)) {
    if (value === undefined || LEFT_TO_CURL.has(name)) continue;
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => v.includes('[redacted]'))) {
      redacted.push(name);
      continue;
    }
    for (const one of values) words.push('--header', quoted(`${name}: ${one}`));
  }
  return { command: words.join(' '), redacted };
}
