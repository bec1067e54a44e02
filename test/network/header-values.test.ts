// A header value holding CR, LF or NUL is refused on every surface that takes one (RFC 9110 §5.5),
// before anything reaches the deployment: a pipeline building --header "$VAR" from a variable must
// not be able to add a header of its own.
import { describe, expect, it } from 'vitest';
import { checkDeployment } from '../../src/index.js';
import { ContractRunError } from '../../src/contract/http-client/contract-run-error.js';
import { runCliInProcess } from '../contract/contract-report-helpers.js';
import { conformingMarkets, withServer } from '../contract/deviant-server.js';

describe('--header values with CR, LF or NUL', () => {
  it('are refused (exit 2) naming the flag and the header, and nothing is sent', async () => {
    await withServer(conformingMarkets(1), undefined, async (server) => {
      const values = ['Authorization: Bearer t0k3n-abc\r\nX-Inj: injected', 'Authorization: Bearer t0k3n-abc\nX-Inj: injected', 'Authorization: Bearer t0k3n\0abc', 'Authorization: Bearer t0k3n\rabc'];
      for (const value of values) {
        const run = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json', '--header', 'X-Trace: ok', '--header', value]);
        expect(run.code, JSON.stringify(value)).toBe(2);
        expect(run.stderr).toMatch(/--header #2 \(Authorization\): the value holds a (CR, LF or NUL|control) character/);
        expect(run.stderr).not.toContain('t0k3n');
      }
      for (const command of ['record']) {
        const run = await runCliInProcess([command, '--base-url', server.url, '--out', '/nonexistent-never-written', '--header', values[0] as string]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain('--header #1 (Authorization): the value holds a CR, LF or NUL character');
      }
      expect(server.requests).toEqual([]);
    });
  });

  it('in MARKET_STUB_HEADER: one header per line, a NUL or a lone CR inside a line refused', async () => {
    await withServer(conformingMarkets(1), undefined, async (server) => {
      const ok = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json'], { env: { MARKET_STUB_HEADER: 'X-One: 1\nX-Two: 2' } });
      expect(ok.code).toBe(0);
      expect(server.requests.every((r) => r.headers['x-one'] === '1' && r.headers['x-two'] === '2')).toBe(true);
      const seen = server.requests.length;
      for (const value of ['X-One: a\0b', 'X-One: a\rX-Inj: injected']) {
        const bad = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json'], { env: { MARKET_STUB_HEADER: value } });
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain('MARKET_STUB_HEADER #1 (X-One): the value holds a CR, LF or NUL character');
      }
      expect(server.requests.length).toBe(seen);
    });
  });

  it('in the library headers option: a ContractRunError OPTION_INVALID, nothing sent', async () => {
    await withServer(conformingMarkets(1), undefined, async (server) => {
      const attempt = checkDeployment({ baseUrl: server.url, headers: [['X-Api-Key', 'k3y\r\nX-Inj: injected']] });
      await expect(attempt).rejects.toBeInstanceOf(ContractRunError);
      await expect(attempt).rejects.toMatchObject({ code: 'OPTION_INVALID', message: expect.stringContaining('headers (--header) #1 (X-Api-Key): the value holds a CR, LF or NUL character') as unknown });
      expect(server.requests).toEqual([]);
    });
  });
});
