// A credential the checker was given that the deployment refuses (a token expiring mid-crawl), or
// access refused to the first request, is the checker's failure: the run ends as could-not-run
// (exit 2) naming the header, never its value, with a report whose one finding is `could-not-run`,
// and never as contract findings on the markets (exit 1).
import { describe, expect, it } from 'vitest';
import { checkDeployment } from '../../src/index.js';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { runCliInProcess } from '../contract/contract-report-helpers.js';
import { conformingMarkets, json, withServer, type Deviations } from '../contract/deviant-server.js';
import { recordInto } from './record-into.js';

const TOKEN = 'Bearer exp1r1ng-t0k3n-4b2e';

/** A deployment whose token works for the first `valid` requests, then answers `status`. */
function expiringAfter(valid: number, status = 401, header = 'authorization', value = TOKEN): Deviations {
  let served = 0;
  return { other: (_url, req) => (req.headers[header] === value && ++served <= valid ? undefined : json({ error: 'token expired' }, status)) };
}

describe('a credential refused mid-crawl', () => {
  it('401 after N successes: exit 2 naming --header Authorization, not exit 1 with findings', async () => {
    await withServer(conformingMarkets(20), expiringAfter(6), async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--all', '--concurrency', '1', '--format', 'json', '--header', `Authorization: ${TOKEN}`, '--header', 'X-Trace: t-1']);
      expect(run.code).toBe(2);
      const report = JSON.parse(run.stdout) as ContractReport;
      expect(report).toMatchObject({ verdict: 'fail', exitCode: 2, summary: { errors: 1, warnings: 0, infos: 0 } });
      expect(report.findings.map((f) => [f.code, f.endpoint])).toEqual([['could-not-run', 'GET /markets/{market_id}']]);
      expect(run.stderr).toMatch(/the deployment refused the credential given with --header Authorization: 401 \(Unauthorized\) to GET \/markets\/DEV-\d+ after 6 successful answers/);
      expect(run.stderr).toContain(report.findings[0]?.found);
      expect(run.stderr + run.stdout).not.toContain('exp1r1ng');
    });
  });

  it('403 on the first request with an X-Api-Key: exit 2 naming it', async () => {
    await withServer(conformingMarkets(3), expiringAfter(0, 403, 'x-api-key', 'k3y-0ld-88'), async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json', '--header', 'X-Api-Key: k3y-0ld-88']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the deployment refused the credential given with --header X-Api-Key: 403 (Forbidden) to GET /markets (a JSON object with keys error).');
      expect(run.stderr + run.stdout).not.toContain('k3y-0ld-88');
    });
  });

  it('401 after earlier successes without any credential: exit 2 saying a credential is now asked for', async () => {
    let served = 0;
    await withServer(conformingMarkets(5), { other: () => (++served > 3 ? json({ error: 'login required' }, 401) : undefined) }, async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--all', '--concurrency', '1', '--format', 'json']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the deployment started refusing requests: 401 (Unauthorized)');
      expect(run.stderr).toContain('after 3 successful answers');
    });
  });

  it('record writes nothing, and the library throws ContractRunError UNAUTHORIZED', async () => {
    await withServer(conformingMarkets(8), expiringAfter(4), async (server) => {
      const { run, ids } = await recordInto(server.url, ['--concurrency', '1', '--header', `Authorization: ${TOKEN}`]);
      expect(run.code).toBe(2);
      expect(ids).toEqual([]);
    });
    await withServer(conformingMarkets(8), expiringAfter(4), async (server) => {
      await expect(checkDeployment({ baseUrl: server.url, all: true, concurrency: 1, headers: [['Authorization', TOKEN]] })).rejects.toMatchObject({ code: 'UNAUTHORIZED', name: 'ContractRunError' });
    });
  });

  it('a 401 on a first request without any credential is access refused too (exit 2), not a contract finding', async () => {
    await withServer(conformingMarkets(2), { other: () => json({ error: 'login required' }, 401) }, async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the deployment refused access: 401 (Unauthorized) to GET /markets (a JSON object with keys error), and the check sent no credential.');
      expect((JSON.parse(run.stdout) as ContractReport).findings.map((f) => f.code)).toEqual(['could-not-run']);
    });
  });
});
