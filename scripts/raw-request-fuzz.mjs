// Odd and hostile requests as raw bytes on a socket, the way a runtime's own HTTP server receives
// them before it builds the `Request` the Fetch handler sees: relative and absolute targets,
// authority-form (CONNECT) and asterisk-form, HTTP/1.0 without Host, userinfo and odd bytes in Host,
// broken percent-encoding, NUL and control bytes, long targets, odd methods, bodies with a wrong
// length, hostile Prefer and validators, admin paths. Seeded: the same list on every run.
//
// `fuzzRawRequests(url, { count, seed })` sends each request on its own connection (at most
// CONCURRENCY at once, each bounded by ANSWER_LIMIT_MS) and resolves with the status of every
// answer: a server may refuse a malformed request with a 4xx or by closing the connection; a 5xx
// is a failure of the handler (scripts/test-runtimes.mjs fails the runtime on any).
import net from 'node:net';

/** Requests on the wire at once. */
const CONCURRENCY = 8;
/**
 * Whether an answer came from the handler: every error the stub writes is JSON in the profile's
 * error shape (src/runtime/error-reply.ts), its 500 included. A 5xx in plain text is the runtime's
 * own server refusing before any handler runs: 501 for a method it does not recognise (RFC 9110
 * §15.6.2: workerd for `BREW`, a lower-case `get`), 505 for a protocol version (§15.6.6: Bun for
 * `HTTP/2.0` on a cleartext socket), workerd's 500 for `CONNECT` (a forbidden method in the Fetch
 * standard: no `Request` can carry it to a worker). Those are counted and listed, not failed.
 */
function fromHandler(head) {
  return /\r\ncontent-type:\s*application\/(?:problem\+)?json/i.test(head);
}
/** How long one request may wait for its status line, ms. */
const ANSWER_LIMIT_MS = 3000;

const TARGETS = [
  '/markets', '/markets/', '/markets/AAA', '/markets/%zz', '/markets/%00', '/markets/a%2Fb', '/markets?limit=-1', '/markets?limit=99999999999999999999',
  '/markets?cursor=%00%ff', '/markets?offset=NaN&limit=1e3', '/healthz', '/openapi.json', '/__stub', '/__stub/requests?traceId=%00', '/__stub/requests.har',
  '/__stub/clock', '/nope', '//markets', '/markets/../__stub', '/./markets', '*', 'markets', 'http://evil.example/markets', 'http://127.0.0.1/markets',
  '127.0.0.1:443', '/' + 'x'.repeat(8000), '/markets/' + '%41'.repeat(2000), '/markets?' + 'a=1&'.repeat(500),
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT', 'BREW', 'get', 'G ET'];
const HOSTS = [undefined, '', '127.0.0.1', '127.0.0.1@evil.example', 'user:pass@127.0.0.1', 'evil.example', '[::1]', '127.0.0.1:0', 'a'.repeat(300), '127.0.0.1\t', 'ünïcode.example'];
const EXTRA = [
  // No well-formed `Prefer: code=5xx`: an injected 5xx is a behaviour asked for, not a failure.
  [], ['Prefer: code=abc'], ['Prefer: explain=maybe'], ['Prefer: deviation=nope'], ['Prefer: delay=-1, fault=nope'], ['If-None-Match: "x", W/"y", *'], ['If-Modified-Since: not a date'],
  ['Content-Length: 5', '', 'ab'], ['Content-Length: -1'], ['Transfer-Encoding: chunked', '', 'zz\r\n'], ['Origin: null'], ['Access-Control-Request-Method: PUT', 'Origin: http://x'],
  ['traceparent: 00-zz-zz-zz'], ['X-Request-Id: ' + 'r'.repeat(2000)], ['Authorization: Bearer \u00ff'], ['Accept-Encoding: gzip;q=2, *;q=-1'],
];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/1.1', 'HTTP/2.0', 'HTTP/1.1'];

/** A small seeded generator (mulberry32): the same sequence for the same seed on every machine. */
function generator(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
}

/** The raw bytes of request `i`: the first of each kind in order, then seeded combinations. */
export function rawRequests(count, seed = 1) {
  const pick = generator(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    const method = i < METHODS.length ? METHODS[i] : METHODS[pick(METHODS.length)];
    const target = TARGETS[i % TARGETS.length];
    const version = VERSIONS[pick(VERSIONS.length)];
    const host = HOSTS[i % HOSTS.length];
    const extra = EXTRA[pick(EXTRA.length)];
    const body = extra.indexOf('');
    const headers = body === -1 ? extra : extra.slice(0, body);
    const lines = [`${method} ${target} ${version}`, ...(host === undefined ? [] : [`Host: ${host}`]), ...headers, 'Connection: close', '', body === -1 ? '' : extra.slice(body + 1).join('\r\n')];
    out.push(Buffer.from(lines.join('\r\n'), 'latin1'));
  }
  return out;
}

/** Sends one request; resolves with its status (a number), or 'closed' / 'timeout' when no status line came, and the head of the answer. */
function send(port, bytes) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let head = '';
    const done = (result) => {
      clearTimeout(timer);
      socket.destroy();
      resolve([result, head.slice(0, 400)]);
    };
    const timer = setTimeout(() => done('timeout'), ANSWER_LIMIT_MS);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const match = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head);
      if (match && (Number(match[1]) < 500 || head.includes('\r\n\r\n'))) done(Number(match[1]));
      else if (!match && head.length > 64) done('closed');
    });
    socket.on('error', () => done('closed'));
    socket.on('close', () => {
      const match = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head);
      done(match ? Number(match[1]) : 'closed');
    });
  });
}

/**
 * Sends `count` odd requests (rawRequests) to the server at `url` (127.0.0.1 only) and resolves
 * with `{ statuses, fivexx, refused }`: how many answers had each status ('closed', 'timeout'
 * included); the first few requests the handler answered with a 5xx, each as its request line and
 * the head of the answer; and the runtime's own refusals seen (fromHandler), each as status and
 * request line.
 */
export async function fuzzRawRequests(url, { count = 300, seed = 1 } = {}) {
  const { hostname, port } = new URL(url);
  if (hostname !== '127.0.0.1') throw new Error(`fuzzRawRequests targets 127.0.0.1 only, not ${hostname}`);
  const requests = rawRequests(count, seed);
  const statuses = {};
  const fivexx = [];
  const refused = new Set();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const bytes = requests[next++];
      const [status, head] = await send(Number(port), bytes);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (typeof status !== 'number' || status < 500) continue;
      const line = `${status} for ${JSON.stringify(bytes.toString('latin1').split('\r\n')[0].slice(0, 120))}`;
      if (!fromHandler(head)) refused.add(line);
      else if (fivexx.length < 10) fivexx.push(`${line}: ${JSON.stringify(head.slice(0, 300))}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { statuses, fivexx, refused: [...refused] };
}
