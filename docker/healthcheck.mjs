// HEALTHCHECK of the market-stub image: GET /healthz with node itself, because the image has no curl.
// Exit 0 when the stub answers 200 within 2 s, 1 otherwise (Docker's HEALTHCHECK contract:
// 0 healthy, 1 unhealthy). The one line printed is kept by the engine in the health log
// (`docker inspect` / `podman inspect` .State.Health.Log), so it says what was dialled and why it failed.
import { request } from 'node:http';

const env = process.env;
const given = (...names) => names.map((name) => env[name]).find((value) => value !== undefined && value !== '');
// Same precedence as `market-stub serve` (src/options/tables/serve-options.ts): MARKET_STUB_* first, then
// the plain PORT/HOST a container platform sets, then serve's defaults.
const port = Number(given('MARKET_STUB_PORT', 'PORT') ?? '4010');
const bound = given('MARKET_STUB_HOST', 'HOST') ?? '127.0.0.1';
// A wildcard bind answers on loopback; a specific address must be dialled as such.
const host = bound === '0.0.0.0' || bound === '::' ? '127.0.0.1' : bound;
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`;

if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.log(`unhealthy: no fixed port to probe (PORT/MARKET_STUB_PORT is ${JSON.stringify(given('MARKET_STUB_PORT', 'PORT'))}); give the container a port from 1 to 65535`);
  process.exitCode = 1;
} else {
  const req = request(url, { method: 'GET', timeout: 2_000 }, (res) => {
    res.resume();
    if (res.statusCode === 200) {
      console.log(`healthy: GET ${url} 200`);
    } else {
      console.log(`unhealthy: GET ${url} answered ${res.statusCode}`);
      process.exitCode = 1;
    }
  });
  req.on('timeout', () => req.destroy(new Error('no answer within 2 s')));
  req.on('error', (error) => {
    console.log(`unhealthy: GET ${url} failed: ${error.code ?? error.message}`);
    process.exitCode = 1;
  });
  req.end();
}
