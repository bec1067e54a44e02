import { describe, expect, it } from 'vitest';
import { describeTlsAlert, tlsAlertName } from './tls-failure.js';

describe('tlsAlertName', () => {
  it.each([
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'handshake_failure'], // TLS 1.2 alert, Node 20's OpenSSL
    ['ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE', 'handshake_failure'], // the same alert, Node 24's OpenSSL
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'certificate_required'],
    ['ERR_SSL_TLSV1_ALERT_UNKNOWN_CA', 'unknown_ca'],
  ])('reads %s as %s', (code, alert) => {
    expect(tlsAlertName(code)).toBe(alert);
  });

  it.each([undefined, '', 'ECONNRESET', 'ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_SSL/TLS_ALERT_'])('names no alert for %s', (code) => {
    expect(tlsAlertName(code)).toBeUndefined();
  });

  it('describes a known alert and says the session ended for an unknown one', () => {
    expect(describeTlsAlert('handshake_failure')).toMatch(/\(TLS alert handshake_failure\)$/);
    expect(describeTlsAlert('no_such_alert')).toBe('the server ended the TLS session (TLS alert no_such_alert)');
  });
});
