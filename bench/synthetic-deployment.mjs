#!/usr/bin/env node
// A synthetic Market API for the checker benchmarks: any number of conforming markets, computed
// from their index (nothing held in memory), the list streamed with backpressure, so a 500 MiB or
// 1 GiB list costs this process nothing. Plain JavaScript, node:http only.
//
//   node bench/synthetic-deployment.mjs --count N [--port 0] [--gzip]
//
// GET /markets: a bare JSON array of N list items (the five list fields); GET /markets/BENCH-n:
// market n (plus resolution_date 2099-12-31); anything else 404. With --gzip the list is sent
// gzip-encoded when the client accepts it. Prints `synthetic deployment listening on URL` and,
// before it, the exact list body size in bytes as `list bytes N`.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';

const { values } = parseArgs({ options: { count: { type: 'string', default: '10000' }, port: { type: 'string', default: '0' }, gzip: { type: 'boolean', default: false } } });
const count = Number(values.count);

const summary = (i) => {
  const cents = 1 + ((i * 37) % 99);
  return `{"market_id":"BENCH-${String(i).padStart(7, '0')}","title":"Will benchmark market number ${i} resolve yes by the end of the quarter?","status":"active","yes_price":${cents / 100},"no_price":${(100 - cents) / 100}}`;
};
const market = (i) => `${summary(i).slice(0, -1)},"resolution_date":"2099-12-31"}`;

let listBytes = 2 + Math.max(0, count - 1);
for (let i = 1; i <= count; i++) listBytes += Buffer.byteLength(summary(i));

function streamList(res, gzip) {
  const out = gzip ? createGzip() : res;
  if (gzip) out.pipe(res);
  let i = 1;
  const pump = () => {
    while (i <= count) {
      let chunk = i === 1 ? '[' : '';
      const end = Math.min(count, i + 500);
      for (; i <= end; i++) chunk += `${i === 1 ? '' : ','}${summary(i)}`;
      if (i > count) chunk += ']';
      if (!out.write(chunk)) {
        out.once('drain', pump);
        return;
      }
    }
    if (count === 0) out.write('[]');
    out.end();
  };
  res.on('close', () => { i = count + 1; });
  pump();
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://synthetic.invalid');
  if (url.pathname === '/markets') {
    const gzip = values.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : { 'content-length': String(listBytes) }) });
    streamList(res, gzip);
    return;
  }
  const m = /^\/markets\/BENCH-(\d+)$/.exec(url.pathname);
  const i = m ? Number(m[1]) : 0;
  const body = i >= 1 && i <= count ? market(i) : JSON.stringify({ error: 'not found' });
  res.writeHead(i >= 1 && i <= count ? 200 : 404, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`list bytes ${listBytes}\nsynthetic deployment listening on http://127.0.0.1:${server.address().port}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
