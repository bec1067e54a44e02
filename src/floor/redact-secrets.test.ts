import { describe, expect, it } from 'vitest';
import { createRedactor, PREFIX_MIN, REDACTED } from './redact-secrets.js';

const token = 'tok_9f8e"7d&<6c>5b\'4a/3+2=1_Zq7Lm3Xw9Rt2Vb6Nk4Hs8Pd1Gf5Jc0Zq7Lm3Xw9Rt2';
const redact = createRedactor([`Bearer ${token}`, 'kq-55e1-9a0b-77cd', 'abc']).redact;

describe('createRedactor', () => {
  it.each([
    ['raw, with its scheme', `auth=Bearer ${token};`, `auth=${REDACTED};`],
    ['without its scheme', `echo ${token}!`, `echo ${REDACTED}!`],
    ['JSON-escaped', JSON.stringify({ t: token }), `{"t":"${REDACTED}"}`],
    ['JSON-escaped twice', JSON.stringify(JSON.stringify(token)), `"\\"${REDACTED}\\""`],
    ['XML text', token.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'), REDACTED],
    ['XML attribute over JSON', `message="${JSON.stringify(token).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;')}"`, `message="&quot;${REDACTED}&quot;"`],
    ['percent-encoded', `/markets?t=${encodeURIComponent(token)}`, `/markets?t=${REDACTED}`],
    ['percent-encoded, lower-case hex', `/m?t=${encodeURIComponent(token).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`, `/m?t=${REDACTED}`],
    ['cut short (a report shortens long values)', `found "${token.slice(0, 40)}…"`, `found "${REDACTED}…"`],
    ['JSON-escaped and cut short', `found ${JSON.stringify(token).slice(0, 30)}…`, `found "${REDACTED}…`],
    ['a short secret is left alone (it would hide ordinary words)', 'abc abc', 'abc abc'],
    ['an unrelated text is untouched', 'nothing to see here', 'nothing to see here'],
  ])('%s', (_name, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('leaves a prefix shorter than PREFIX_MIN (it matches ordinary words too often)', () => {
    expect(redact(`t=${token.slice(0, PREFIX_MIN - 1)}`)).toBe(`t=${token.slice(0, PREFIX_MIN - 1)}`);
  });

  it('redacts the decoded credentials of Basic authentication', () => {
    const basic = createRedactor([`Basic ${Buffer.from('alice:s3cr3t-pass-word').toString('base64')}`]);
    expect(basic.redact('user alice:s3cr3t-pass-word and s3cr3t-pass-word')).toBe(`user ${REDACTED} and ${REDACTED}`);
  });

  it('redacts values and keys of JSON-like values without breaking them', () => {
    const value = { [token]: [token, 1, null, { note: `x ${token}` }] };
    expect(createRedactor([token]).redactValue(value)).toEqual({ [REDACTED]: [REDACTED, 1, null, { note: `x ${REDACTED}` }] });
  });

  it('property: for random secrets, no form of a secret survives in any text built around it', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"&<>\'/+=_-.~ ';
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 200; run++) {
      const secret = Array.from({ length: 20 + Math.floor(random() * 60) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('').trim();
      const r = createRedactor([secret]);
      const shapes = [secret, JSON.stringify(secret), encodeURIComponent(secret), secret.slice(0, 20 + Math.floor(random() * 20))];
      for (const shape of shapes) expect(r.redact(`before ${shape} after`)).not.toContain(secret.slice(0, PREFIX_MIN + 2));
    }
  });
});
