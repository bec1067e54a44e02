// Names for what the checker sees: an event stream where the list should be is named at once from
// its media type or first bytes (not read until --timeout-ms), and values that differ only by
// Unicode normalisation are shown with their code points and forms, never as `expected "X", found "X"`.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer } from './deviant-server.js';
import { findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';

const LIST = 'GET /markets';
const SINGLE = 'GET /markets/{market_id}';

/** An endless event stream: `lines` every 100 ms until the client goes away. */
const eventStream = (contentType: string | undefined, lines: string) => (res: ServerResponse) => {
  res.writeHead(200, contentType === undefined ? {} : { 'content-type': contentType });
  const send = () => {
    if (!res.destroyed) res.write(lines);
  };
  send();
  const timer = setInterval(send, 100);
  res.on('close', () => clearInterval(timer));
};

describe.concurrent('an event stream where the list should be', () => {
  it.each([
    ['text/event-stream', 'text/event-stream; charset=utf-8', ': keep-alive\n\n', /^an event stream \(server-sent events, text\/event-stream\), no byte yet; not read further$/],
    ['data lines served as application/json', 'application/json', `data: ${JSON.stringify(summaryOf(conformingMarket(1)))}\n\n`, /^an event stream \(server-sent events, served as application\/json\), first bytes "data: \{\\"market_id\\":/],
    ['event lines with no Content-Type', undefined, 'event: market\ndata: {}\n\n', /^an event stream \(server-sent events, served as no Content-Type\), first bytes "event: market\\ndata: \{\}/],
    ['a comment line first', 'application/json', ':ok\n\ndata: 1\n\n', /first bytes ":ok\\n\\ndata: 1/],
  ] as const)('%s: named within a second as not JSON (exit 1), not a time-out', async (_name, contentType, lines, found) => {
    await withServer(conformingMarkets(3), { list: () => ({ stream: eventStream(contentType, lines) }) }, async (server) => {
      const started = performance.now();
      const run = await runCheckJson(server.url, ['--timeout-ms', '20000']);
      // The time-out is 20 s; the stream is named on its headers or first bytes (the bound leaves room for a loaded machine).
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual([`error not-json ${LIST} `]);
      expect(findingOf(run.report, 'not-json').examples[0]?.found).toMatch(found);
    });
  });

  it('a single market answered with an endless text/event-stream: named at once, the other markets checked', async () => {
    await withServer(conformingMarkets(3), { single: (id) => (id === 'DEV-2' ? { stream: eventStream('text/event-stream', 'data: {}\n\n') } : undefined) }, async (server) => {
      const started = performance.now();
      const run = await runCheckJson(server.url, ['--all', '--timeout-ms', '20000']);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual([`error not-json ${SINGLE} `]);
      expect(findingOf(run.report, 'not-json').examples[0]).toMatchObject({ marketId: 'DEV-2', found: 'an event stream (server-sent events, text/event-stream), no byte yet; not read further' });
      expect(run.report.summary).toMatchObject({ marketsChecked: 3 });
    });
  });

  it('a JSON list starting with blank space is still read as JSON', async () => {
    await withServer(conformingMarkets(3), { list: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: `\n\n ${JSON.stringify(conformingMarkets(3).map(summaryOf))}` }) }, async (server) => {
      const run = await runCheckJson(server.url);
      expect(problemKeys(run.report)).toEqual([]);
      expect(run.code).toBe(0);
    });
  });
});

describe.concurrent('values that differ only by Unicode normalisation', () => {
  const nfc = 'CAFÉ-2026';
  const nfd = nfc.normalize('NFD');

  it('a market_id in NFD in the list and NFC in the item: code points and forms named', async () => {
    const listed = conformingMarket(1, { market_id: nfd });
    await withServer([listed], { single: (id) => (id === nfd ? json({ ...listed, market_id: nfc }) : undefined) }, async (server) => {
      const run = await runCheckJson(server.url);
      expect(run.code).toBe(1);
      const mismatch = findingOf(run.report, 'id-mismatch', SINGLE);
      expect(mismatch.expected).toBe(`the market_id asked for ("${nfd}" (U+0045 U+0301 at character 4, NFD))`);
      expect(mismatch.examples[0]?.found).toBe(`"${nfc}" (U+00C9 at character 4, NFC): the same text in another Unicode normalisation form (equal after NFC)`);
      const text = await runCliInProcess(['check', '--base-url', server.url]);
      expect(text.stdout).toContain('U+0045 U+0301 at character 4, NFD');
      expect(text.stdout).toContain('U+00C9 at character 4, NFC');
    });
  });

  it('a title with a compatibility ligature in the item (ﬁ, U+FB01): named as equal after NFKC', async () => {
    const listed = conformingMarket(1, { title: 'Will the final resolve yes?' });
    await withServer([listed], { single: () => json({ ...listed, title: 'Will the ﬁnal resolve yes?' }) }, async (server) => {
      const run = await runCheckJson(server.url);
      const mismatch = findingOf(run.report, 'list-single-mismatch', SINGLE);
      expect(mismatch.expected).toBe('the title the list shows ("Will the final resolve yes?" (U+0066 U+0069 at character 10, NFC and NFD))');
      expect(mismatch.examples[0]?.found).toBe('"Will the ﬁnal resolve yes?" (U+FB01 at character 10, NFC and NFD): the same text up to Unicode compatibility characters (equal after NFKC, not after NFC)');
    });
  });

  it('texts that differ visibly keep the plain form', async () => {
    const listed = conformingMarket(1);
    await withServer([listed], { single: () => json({ ...listed, title: 'Another title' }) }, async (server) => {
      const run = await runCheckJson(server.url);
      const mismatch = findingOf(run.report, 'list-single-mismatch', SINGLE);
      expect(mismatch.examples[0]?.found).toBe('"Another title"');
    });
  });
});
