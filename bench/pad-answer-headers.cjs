// A measurement control for bench:time, loaded with `node --require` into the build compared with:
// every response written with `writeHead(status, headersObject)` gets one more field,
// `X-Bench-Pad: xxx…`, of BENCH_PAD_BYTES value bytes, so its answers are as long on the wire as
// this build's. What that build does is otherwise unchanged. bench/README.md ("Time and
// explanation") says why a same-size comparison is needed.
'use strict';
const http = process.getBuiltinModule('node:http');

const padBytes = Number(process.env.BENCH_PAD_BYTES ?? '0');
if (!Number.isInteger(padBytes) || padBytes < 0 || padBytes > 8192) {
  throw new Error(`BENCH_PAD_BYTES: expected an integer from 0 to 8192, found ${JSON.stringify(process.env.BENCH_PAD_BYTES)}`);
}
const pad = 'x'.repeat(padBytes);
const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function padded(status, reasonOrHeaders, maybeHeaders) {
  const headers = typeof reasonOrHeaders === 'string' ? maybeHeaders : reasonOrHeaders;
  if (headers !== null && typeof headers === 'object' && !Array.isArray(headers)) headers['x-bench-pad'] = pad;
  return writeHead.call(this, status, reasonOrHeaders, maybeHeaders);
};
