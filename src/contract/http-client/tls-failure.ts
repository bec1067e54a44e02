import { connect } from 'node:tls';

/** What an alert (RFC 8446 §6.2) a server sent means for the person running the check. */
const ALERT_MEANING: Readonly<Record<string, string>> = {
  certificate_required: 'the server requires a client certificate; give one with --cert and --key',
  handshake_failure: 'the server refused the handshake; behind mutual TLS (TLS 1.2) this is usually a missing client certificate (--cert, --key), else no cipher or version in common',
  unknown_ca: 'the server does not trust the issuer of the client certificate (--cert)',
  bad_certificate: 'the server refused the client certificate (--cert)',
  certificate_expired: 'the server says a certificate has expired',
  certificate_revoked: 'the server says a certificate was revoked',
  certificate_unknown: 'the server refused the client certificate (--cert) for an unstated reason',
  unsupported_certificate: 'the server does not support the client certificate\'s type (--cert)',
  access_denied: 'the server accepted the client certificate but denies it access',
  protocol_version: 'the server supports no TLS version in common',
  decrypt_error: 'the server could not verify the client certificate\'s signature (is --key the key of --cert?)',
};

/**
 * The TLS alert a Node/OpenSSL error code names (`ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED` →
 * `certificate_required`), RFC 8446 §6's spelling; undefined when the code names none. Node 24's
 * OpenSSL spells TLS 1.2 alerts `ERR_SSL_SSL/TLS_ALERT_…` where Node 20's said `ERR_SSL_SSLV3_ALERT_…`
 * (test/network/client-certificate.test.ts, run on Node 24 by .ci/node-matrix.sh).
 */
export function tlsAlertName(code: string | undefined): string | undefined {
  const m = /^ERR_SSL_(?:SSLV3|TLSV1|TLSV13|SSL\/TLS)_ALERT_([A-Z_]+)$/.exec(code ?? '');
  return m?.[1]?.toLowerCase();
}

/** `the server requires a client certificate; … (TLS alert certificate_required)`. */
export function describeTlsAlert(alert: string): string {
  return `${ALERT_MEANING[alert] ?? 'the server ended the TLS session'} (TLS alert ${alert})`;
}

/** TLS material of the client (PEM text), as tls.connect takes it. */
export interface ClientTls {
  cert?: string;
  key?: string;
  passphrase?: string;
  ca?: string;
}

/**
 * Asks the server again, once, on a connection of its own, why it closed: with TLS 1.3 a server
 * refuses a client certificate after the client's handshake is done (RFC 8446 §4.4.2.4), and the
 * HTTP client then sees only a closed connection. This sends a bare `HEAD` over a fresh
 * connection with the same TLS material and describes what the server does.
 * @returns why, in words (the alert when there is one), or undefined when the server answered,
 *   failed before the handshake completed without an alert, or did not answer within `timeoutMs`.
 */
export function probeTlsFailure(url: URL, tls: ClientTls, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    let secured = false;
    const done = (reason: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(reason);
    };
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const socket = connect({ host, port: Number(url.port) || 443, ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }), ...tls }, () => {
      secured = true;
      socket.write(`HEAD ${url.pathname || '/'} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
    });
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const alert = tlsAlertName(error.code);
      done(alert === undefined ? undefined : describeTlsAlert(alert));
    });
    socket.on('data', () => done(undefined));
    socket.on('close', () => done(secured ? closedAfterHandshake(tls) : undefined));
  });
}

/** A server that completed the handshake and closed without an alert or an answer: what it most likely refused. */
function closedAfterHandshake(tls: ClientTls): string {
  return tls.cert === undefined
    ? 'the server closed the connection right after the TLS handshake, without an alert or an answer: it may require a client certificate (--cert, --key)'
    : 'the server closed the connection right after the TLS handshake, without an alert or an answer: it may have refused the client certificate (--cert; its issuer must be one the server trusts)';
}
