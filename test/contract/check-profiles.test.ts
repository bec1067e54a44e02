// `check` against market-stub serve under each response profile: envelopes, offset and
// cursor paging (envelope fields and Link headers), error body shapes. All must pass cleanly.
import { describe, expect, it } from 'vitest';
import { startServeProcess } from '../support/cli-process.js';
import { runCheckJson } from './contract-report-helpers.js';

const profiles: Array<{ flags: string[]; list: Record<string, unknown> }> = [
  { flags: ['--envelope', 'markets'], list: { shape: 'envelope', envelopeKey: 'markets', pages: 1, paging: 'none' } },
  { flags: ['--envelope', 'entries'], list: { shape: 'envelope', envelopeKey: 'entries', pages: 1 } },
  { flags: ['--paging', 'offset', '--page-size', '9'], list: { shape: 'array', pages: 11, paging: 'link' } },
  { flags: ['--paging', 'cursor', '--page-size', '10'], list: { shape: 'array', pages: 10, paging: 'link' } },
  { flags: ['--envelope', 'data', '--paging', 'cursor', '--page-size', '7', '--errors', 'problem'], list: { shape: 'envelope', envelopeKey: 'data', pages: 14 } },
  { flags: ['--envelope', 'items', '--paging', 'offset', '--page-size', '11', '--errors', 'error-object'], list: { shape: 'envelope', envelopeKey: 'items', pages: 9 } },
];

describe('check against every response profile of serve', () => {
  it.each(profiles)('serve $flags passes with no errors and no warnings', async ({ flags, list }) => {
    const stub = await startServeProcess(['--port', '0', '--seed', '3', '--count', '95', '--quiet', ...flags]);
    try {
      const run = await runCheckJson(stub.url, ['--all']);
      expect(run.report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.report.list).toMatchObject({ ...list, complete: true });
      expect(run.report.summary).toMatchObject({ marketsListed: 95, marketsChecked: 95 });
    } finally {
      await stub.stop();
    }
  });
});
