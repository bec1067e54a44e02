/** One link of a `Link` header field: the target as written and its parameters (names lower-cased). */
export interface WebLink {
  target: string;
  params: Record<string, string>;
}

/**
 * Parses a `Link` header field value (RFC 8288 §3): comma-separated `<URI-Reference>` values, each
 * with `;`-separated parameters whose values are tokens or quoted strings (RFC 9110 §5.6.4, with
 * backslash escapes). Several `Link` fields combined into one value by `Headers.get` parse the same.
 * Malformed parts are skipped rather than thrown: a bad header must not stop a crawl.
 */
export function parseLinkHeader(value: string): WebLink[] {
  const links: WebLink[] = [];
  let i = 0;
  const n = value.length;
  const skipSpace = () => {
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
  };
  while (i < n) {
    skipSpace();
    if (value[i] === ',') {
      i++;
      continue;
    }
    if (value[i] !== '<') {
      // Not the start of a link-value: skip to the next top-level comma.
      i = nextTopLevelComma(value, i);
      continue;
    }
    const close = value.indexOf('>', i + 1);
    if (close === -1) break;
    const link: WebLink = { target: value.slice(i + 1, close).trim(), params: {} };
    i = close + 1;
    for (;;) {
      skipSpace();
      if (value[i] !== ';') break;
      i++;
      skipSpace();
      const nameStart = i;
      while (i < n && /[!#$%&'*+\-.^_`|~0-9A-Za-z]/.test(value[i] ?? '')) i++;
      const name = value.slice(nameStart, i).toLowerCase();
      skipSpace();
      let paramValue = '';
      if (value[i] === '=') {
        i++;
        skipSpace();
        if (value[i] === '"') {
          i++;
          while (i < n && value[i] !== '"') {
            if (value[i] === '\\' && i + 1 < n) i++;
            paramValue += value[i];
            i++;
          }
          i++;
        } else {
          const start = i;
          while (i < n && value[i] !== ';' && value[i] !== ',') i++;
          paramValue = value.slice(start, i).trim();
        }
      }
      // RFC 8288 §3.3: occurrences after the first of `rel` are ignored.
      if (name && !(name in link.params)) link.params[name] = paramValue;
    }
    links.push(link);
    i = nextTopLevelComma(value, i);
  }
  return links;
}

/**
 * The target of the first link whose `rel` holds `relation` (relation types compare
 * case-insensitively, and `rel` may list several separated by spaces, RFC 8288 §3.3), or undefined.
 */
export function findLinkTarget(value: string | null | undefined, relation: string): string | undefined {
  if (!value) return undefined;
  const wanted = relation.toLowerCase();
  for (const link of parseLinkHeader(value)) {
    const rel = link.params['rel'];
    if (rel !== undefined && rel.toLowerCase().split(/\s+/).includes(wanted)) return link.target;
  }
  return undefined;
}

function nextTopLevelComma(value: string, from: number): number {
  let i = from;
  let quoted = false;
  while (i < value.length) {
    const c = value[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      return i + 1;
    }
    i++;
  }
  return i;
}
