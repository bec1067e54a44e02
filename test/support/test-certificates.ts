// Certificates for the TLS tests, made fresh by the openssl CLI in a temporary folder (no private
// key is checked in): a CA, a server certificate for 127.0.0.1 and localhost, a client certificate
// signed by the same CA, one signed by another CA, and an encrypted copy of the client key.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** PEM texts and the files holding them. */
export interface TestCertificates {
  dir: string;
  files: { ca: string; serverCert: string; serverKey: string; clientCert: string; clientKey: string; clientKeyEncrypted: string; strangerCert: string; strangerKey: string };
  pem: { ca: string; serverCert: string; serverKey: string };
  /** The passphrase of clientKeyEncrypted. */
  passphrase: string;
  remove(): void;
}

/** True when the openssl CLI is on PATH. */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Makes the certificates (EC P-256: fast to generate). */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-tls-'));
  const at = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = (name: string) => ssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', at(name));
  const ca = (name: string) => {
    key(`${name}.key`);
    ssl('req', '-x509', '-new', '-key', at(`${name}.key`), '-subj', `/CN=market-stub test ${name}`, '-days', '2', '-out', at(`${name}.pem`));
  };
  const signed = (name: string, by: string, ext: string) => {
    key(`${name}.key`);
    ssl('req', '-new', '-key', at(`${name}.key`), '-subj', `/CN=${name}`, '-out', at(`${name}.csr`));
    writeFileSync(at(`${name}.ext`), ext);
    ssl('x509', '-req', '-in', at(`${name}.csr`), '-CA', at(`${by}.pem`), '-CAkey', at(`${by}.key`), '-CAcreateserial', '-days', '2', '-extfile', at(`${name}.ext`), '-out', at(`${name}.pem`));
  };
  ca('ca');
  ca('stranger-ca');
  signed('server', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  signed('client', 'ca', 'extendedKeyUsage=clientAuth\n');
  signed('stranger', 'stranger-ca', 'extendedKeyUsage=clientAuth\n');
  const passphrase = 'test-only-passphrase-5d1c';
  ssl('pkey', '-in', at('client.key'), '-aes256', '-passout', `pass:${passphrase}`, '-out', at('client-encrypted.key'));
  const files = {
    ca: at('ca.pem'), serverCert: at('server.pem'), serverKey: at('server.key'), clientCert: at('client.pem'), clientKey: at('client.key'),
    clientKeyEncrypted: at('client-encrypted.key'), strangerCert: at('stranger.pem'), strangerKey: at('stranger.key'),
  };
  return {
    dir, files, passphrase,
    pem: { ca: readFileSync(files.ca, 'utf8'), serverCert: readFileSync(files.serverCert, 'utf8'), serverKey: readFileSync(files.serverKey, 'utf8') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
