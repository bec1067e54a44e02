// Deployments behind mutual TLS: --cert, --key, --pass and --cacert as curl names them (and their
// MARKET_STUB_ variables, and the library's `network`), files read bounded, the key and its
// passphrase never shown, and a refused handshake named by its TLS alert, not "connection closed".
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDeployment } from '../../src/index.js';
import { runCliInProcess } from '../contract/contract-report-helpers.js';
import { conformingMarkets, withServer, type Deviations } from '../contract/deviant-server.js';
import { hasOpenssl, makeTestCertificates, type TestCertificates } from '../support/test-certificates.js';

let certs: TestCertificates;
let work: string;
beforeAll(async () => {
  if (!hasOpenssl()) throw new Error('the openssl CLI is needed to make the test certificates');
  certs = makeTestCertificates();
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-mtls-'));
});
afterAll(async () => {
  certs.remove();
  await rm(work, { recursive: true, force: true });
});

/** A deployment that demands a client certificate issued by the test CA. */
const mutualTls = (extra: Record<string, unknown> = {}): Deviations => ({ tls: { key: certs.pem.serverKey, cert: certs.pem.serverCert, ca: certs.pem.ca, requestCert: true, rejectUnauthorized: true, ...extra } });

const check = (url: string, args: string[], env: Record<string, string> = {}) => runCliInProcess(['check', '--base-url', url, '--format', 'json', '--cacert', certs.files.ca, ...args], { env });

describe('a client certificate is taken', () => {
  it('from --cert and --key, and from MARKET_STUB_CERT / MARKET_STUB_KEY', async () => {
    await withServer(conformingMarkets(2), mutualTls(), async (server) => {
      const byFlag = await check(server.url, ['--cert', certs.files.clientCert, '--key', certs.files.clientKey]);
      expect(byFlag.stderr).toBe('');
      expect(byFlag.code).toBe(0);
      const byEnv = await check(server.url, [], { MARKET_STUB_CERT: certs.files.clientCert, MARKET_STUB_KEY: certs.files.clientKey });
      expect(byEnv.code).toBe(0);
      expect(server.requests.length).toBe(8);
    });
  });

  it('with an encrypted key and its passphrase (--pass, MARKET_STUB_KEY_PASSPHRASE), neither ever shown', async () => {
    const key = await readFile(certs.files.clientKey, 'utf8');
    const keyBody = key.split('\n')[1] ?? '';
    await withServer(conformingMarkets(1), mutualTls(), async (server) => {
      const run = await check(server.url, ['--cert', certs.files.clientCert, '--key', certs.files.clientKeyEncrypted], { MARKET_STUB_KEY_PASSPHRASE: certs.passphrase });
      expect(run.code).toBe(0);
      const wrong = await check(server.url, ['--cert', certs.files.clientCert, '--key', certs.files.clientKeyEncrypted, '--pass', 'not-the-passphrase-31']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('the key is encrypted and the passphrase (--pass) is missing or wrong');
      for (const text of [run.stdout, run.stderr, wrong.stdout, wrong.stderr]) {
        expect(text).not.toContain(certs.passphrase);
        expect(text).not.toContain('not-the-passphrase-31');
        expect(text).not.toContain(keyBody);
      }
    });
  });

  it('by the library (network: cert, key, ca as PEM text)', async () => {
    await withServer(conformingMarkets(2), mutualTls(), async (server) => {
      const report = await checkDeployment({ baseUrl: server.url, network: { cert: await readFile(certs.files.clientCert, 'utf8'), key: await readFile(certs.files.clientKey, 'utf8'), ca: certs.pem.ca } });
      expect(report.verdict).toBe('pass');
      expect(report.summary.marketsChecked).toBe(2);
    });
  });
});

describe('a refused handshake names its TLS alert', () => {
  it('TLS 1.3 without a client certificate: certificate_required', async () => {
    await withServer(conformingMarkets(1), mutualTls(), async (server) => {
      const run = await check(server.url, []);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the server requires a client certificate; give one with --cert and --key (TLS alert certificate_required)');
      expect(run.stderr).not.toContain('connection was closed');
      expect(server.requests).toEqual([]);
    });
  });

  it('TLS 1.2 without a client certificate: handshake_failure', async () => {
    await withServer(conformingMarkets(1), mutualTls({ maxVersion: 'TLSv1.2' }), async (server) => {
      const run = await check(server.url, []);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('(TLS alert handshake_failure)');
    });
  });

  it('a certificate from an issuer the server does not trust (Node closes without an alert): says so', async () => {
    await withServer(conformingMarkets(1), mutualTls(), async (server) => {
      const run = await check(server.url, ['--cert', certs.files.strangerCert, '--key', certs.files.strangerKey]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('it may have refused the client certificate (--cert; its issuer must be one the server trusts)');
    });
  });
});

describe('bad certificate options are refused before any request, naming the option', () => {
  it('missing, a directory, not PEM, a key of another certificate, a key without a certificate', async () => {
    const notPem = path.join(work, 'not.pem');
    const folder = path.join(work, 'folder');
    await writeFile(notPem, 'just text');
    await mkdir(folder, { recursive: true });
    await withServer(conformingMarkets(1), mutualTls(), async (server) => {
      const cases: Array<[string[], string]> = [
        [['--cert', path.join(work, 'absent.pem'), '--key', certs.files.clientKey], `--cert: ${path.join(work, 'absent.pem')} does not exist (ENOENT).`],
        [['--cert', folder, '--key', certs.files.clientKey], `--cert: ${folder} is a directory, not a regular file.`],
        [['--cert', certs.files.clientCert, '--key', notPem], `--key: ${notPem} is not a PEM file`],
        [['--cert', certs.files.clientCert, '--key', certs.files.strangerKey], 'the key (--key) does not belong to the certificate (--cert)'],
        [['--key', certs.files.clientKey], '--key was given without --cert'],
      ];
      for (const [args, message] of cases) {
        const run = await check(server.url, args);
        expect(run.code, args.join(' ')).toBe(2);
        expect(run.stderr, args.join(' ')).toContain(message);
      }
      const fromEnv = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json'], { env: { MARKET_STUB_CACERT: path.join(work, 'absent-ca.pem') } });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.stderr).toContain(`MARKET_STUB_CACERT: ${path.join(work, 'absent-ca.pem')} does not exist (ENOENT).`);
      expect(server.requests).toEqual([]);
    });
  });
});
