// The catalogue holds together: every deviation declares what check reports (or why nothing can),
// its class agrees with the severities it declares, and every error and warning the checker can
// emit is provoked by a deviation or explicitly exempted with a reason.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIST_ENDPOINT, SINGLE_ENDPOINT } from '../../src/contract/checks/contract-finding.js';
import { CONTRACT_CHECKS, FINDING_KINDS } from '../../src/floor/finding-codes.js';
import { DEVIATIONS, deviationNames, findDeviation, UNPROVOKED_FINDINGS } from '../../src/deviation/deviation-catalogue.js';

/** `severity code endpoint` of every kind the checker can emit (errors and warnings). */
const emitted = FINDING_KINDS.filter((k) => k.severity !== 'info').flatMap((k) => k.endpoints.map((e) => `${k.severity} ${k.code} ${e}`));
const provoked = new Set(DEVIATIONS.flatMap((d) => d.findings.map((f) => `${f.severity} ${f.code} ${f.endpoint}`)));
const exempt = (kind: string) => UNPROVOKED_FINDINGS.some((u) => kind.startsWith(`${u.severity} ${u.code} `));

describe('the deviation catalogue', () => {
  it('covers at least every drift the issue names, and the five former domain faults', () => {
    const names = DEVIATIONS.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining([
      'string-price', 'null-price', 'list-resolution-date', 'datetime-resolution-date', 'impossible-resolution-date', 'integer-market-id',
      'listed-but-404', 'title-mismatch', 'price-out-of-range', 'price-sum', 'float-noise', 'non-active-status', 'past-resolution-date',
      'list-envelope-change', 'list-500', 'item-not-json', 'list-not-json', 'item-truncated-json', 'list-truncated-json',
      'item-wrong-content-type', 'list-wrong-content-type', 'item-bom', 'list-bom', 'item-duplicate-member', 'list-duplicate-member', 'item-slow',
      'stale-prices',
    ]));
    for (const field of ['market-id', 'title', 'status', 'yes-price', 'no-price']) expect(names).toContain(`list-missing-${field}`);
    for (const field of ['market-id', 'title', 'status', 'yes-price', 'no-price', 'resolution-date']) expect(names).toContain(`item-missing-${field}`);
    expect(new Set(names).size).toBe(names.length);
    expect(['missing', 'stale', 'unknown-status', 'price-out-of-range', 'price-sum'].map((f) => findDeviation(f)?.name))
      .toEqual(['listed-but-404', 'stale-prices', 'non-active-status', 'price-out-of-range', 'price-sum']);
  });

  it.each(DEVIATIONS.map((d) => [d.name, d] as const))('%s declares its findings, class and endpoints consistently', (_name, d) => {
    expect(d.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    // Findings, or the one reason no crawl can see it, never both and never neither.
    expect(d.findings.length > 0).toBe(d.unseen === undefined);
    expect(d.class === 'contract').toBe(d.findings.some((f) => f.severity === 'error'));
    for (const f of d.findings) {
      expect(FINDING_KINDS.some((k) => k.code === f.code && k.severity === f.severity && (k.endpoints as readonly string[]).includes(f.endpoint)), `${f.severity} ${f.code} ${f.endpoint}`).toBe(true);
      expect(d.endpoints).toContain(f.endpoint === LIST_ENDPOINT ? 'list' : 'item');
    }
    if (d.scope === 'list') expect(d.endpoints).toEqual(['list']);
    expect(d.describe.length).toBeGreaterThan(10);
  });

  it('provokes every error and warning the checker can emit, or says why it cannot', () => {
    const neither = emitted.filter((kind) => !provoked.has(kind) && !exempt(kind));
    expect(neither, 'add a deviation that provokes it, or a reasoned entry to UNPROVOKED_FINDINGS').toEqual([]);
  });

  it('exempts only findings no deviation provokes, each with a reason', () => {
    for (const u of UNPROVOKED_FINDINGS) {
      expect(FINDING_KINDS.some((k) => k.code === u.code && k.severity === u.severity), `${u.severity} ${u.code} is a finding the checker emits`).toBe(true);
      expect([...provoked].filter((p) => p.startsWith(`${u.severity} ${u.code} `)), `${u.severity} ${u.code} is provoked, so it is no exemption`).toEqual([]);
      expect(u.why.length).toBeGreaterThan(20);
    }
  });

  it('answers to its names and former names only', () => {
    expect(deviationNames()).toEqual(expect.arrayContaining(['missing', 'stale', 'unknown-status']));
    expect(findDeviation('string-price')?.name).toBe('string-price');
    expect(findDeviation('String-Price')).toBeUndefined();
    expect(findDeviation('constructor')).toBeUndefined();
  });
});

describe('docs/contract-check.md', () => {
  const doc = readFileSync(new URL('../../docs/contract-check.md', import.meta.url), 'utf8');
  /** The codes of the rows of the table under a heading. */
  const tableCodes = (heading: string): string[] => {
    const section = doc.slice(doc.indexOf(heading), doc.indexOf('\n### ', doc.indexOf(heading) + heading.length));
    return [...section.matchAll(/^\| `([a-zA-Z-]+)`(?:, `([a-zA-Z-]+)`)? \|/gm)].flatMap((m) => [m[1], m[2]]).filter((c): c is string => c !== undefined);
  };

  it.each([['error', '### Errors'], ['warning', '### Warnings'], ['info', '### Information']] as const)('documents every %s the checker emits', (severity, heading) => {
    const codes = [...new Set(FINDING_KINDS.filter((k) => k.severity === severity).map((k) => k.code))].sort();
    expect(tableCodes(heading).sort()).toEqual(codes);
  });
});

it('puts every error and warning in a JUnit check of its own (the schema check takes only schema keywords)', () => {
  const schemaCodes = ['required', 'type', 'format', 'forbidden', 'minLength', 'dot-segment-id', 'single-envelope'];
  for (const kind of FINDING_KINDS.filter((k) => k.severity !== 'info')) {
    const check = CONTRACT_CHECKS.find((c) => (c.codes as readonly string[]).includes(kind.code));
    expect(check?.name, kind.code).toBeDefined();
    if (check?.name === 'schema') expect(schemaCodes).toContain(kind.code);
  }
});

describe('the documented recipe (docs/deviations.md)', () => {
  it('is the consumer project test/consumers/drift/drift.test.ts, verbatim', () => {
    const readme = readFileSync(new URL('../../docs/deviations.md', import.meta.url), 'utf8');
    const recipe = readFileSync(new URL('../consumers/drift/drift.test.ts', import.meta.url), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${recipe}\`\`\``);
  });
});

it('keeps the endpoint names of the contract room', () => {
  expect([LIST_ENDPOINT, SINGLE_ENDPOINT]).toEqual(['GET /markets', 'GET /markets/{market_id}']);
});

describe('docs/contract-check.md, "Findings over time"', () => {
  it('documents every finding a watch emits, with its severity', async () => {
    const { WATCH_FINDING_KINDS } = await import('../../src/floor/watch-finding-codes.js');
    const doc = readFileSync(new URL('../../docs/contract-check.md', import.meta.url), 'utf8');
    const start = doc.indexOf('### Findings over time');
    const section = doc.slice(start, doc.indexOf('\n## ', start));
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| [a-z]+ \| (warning|info|error) \|/gm)].map((m) => `${m[2]} ${m[1]}`).sort();
    expect(rows).toEqual(WATCH_FINDING_KINDS.map((k) => `${k.severity} ${k.code}`).sort());
  });
});
