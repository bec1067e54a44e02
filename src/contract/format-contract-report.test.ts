import { describe, expect, it } from 'vitest';
import { redactSecrets } from './format-contract-report.js';

describe('redactSecrets', () => {
  it.each([
    ['token=Bearer abc123 end', ['Bearer abc123'], 'token=[redacted] end'],
    ['{"title":"say \\"hi\\" s3cr\\"t"}', ['s3cr"t'], '{"title":"say \\"hi\\" [redacted]"}'],
    ['a abc a', ['abc'], 'a abc a'],
    ['x', [], 'x'],
  ])('%s', (text, secrets, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });
});
