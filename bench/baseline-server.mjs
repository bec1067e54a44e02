#!/usr/bin/env node
// The benchmark's baseline: the physical limit of serving these markets from Node on this machine.
// A bare node:http server answering from buffers serialised once at start-up, keyed by the exact
// request path; no router, no logging, no per-request work beyond one Map lookup: the physical limit the stub's figures are ratios to.
//
//   node bench/baseline-server.mjs --fixtures <markets.json> [--port 0] [--host 127.0.0.1]
//
// Reads a fixtures file (a JSON array of Markets, as written by `market-stub generate --out`) and
// serves GET /markets (the bare array of the five list fields, in the stub's field order) and
// GET /markets/{market_id} (the market as stored). Prints
// `baseline listening on http://ADDRESS:PORT serving N markets from FILE` once bound.
// Plain JavaScript on purpose: its cold start must not include a TypeScript loader.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    fixtures: { type: 'string' },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});
if (!values.fixtures) {
  process.stderr.write('baseline-server: --fixtures <markets.json> is required (write one with `market-stub generate --out FILE`).\n');
  process.exit(2);
}

const markets = JSON.parse(readFileSync(values.fixtures, 'utf8'));
const SUMMARY_FIELDS = ['market_id', 'title', 'status', 'yes_price', 'no_price'];
const summaries = markets.map((m) => Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, m[f]])));
const bodies = new Map([
  ['/markets', Buffer.from(JSON.stringify(summaries))],
  ...markets.map((m) => [`/markets/${encodeURIComponent(m.market_id)}`, Buffer.from(JSON.stringify(m))]),
]);
const NOT_FOUND = Buffer.from('{"status":404,"error":"route_not_found"}');
const CONTENT_TYPE = 'application/json; charset=utf-8';

const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const body = bodies.get(q === -1 ? url : url.slice(0, q));
  const out = body ?? NOT_FOUND;
  res.writeHead(body ? 200 : 404, { 'content-type': CONTENT_TYPE, 'content-length': String(out.length) });
  res.end(out);
});

server.listen(Number(values.port), values.host, () => {
  const address = server.address();
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  process.stdout.write(`baseline listening on http://${host}:${address.port} serving ${markets.length} markets from ${values.fixtures}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
  });
}
