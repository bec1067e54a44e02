import { describe, expect, it } from 'vitest';
import { findLinkTarget, parseLinkHeader } from './link-header.js';

describe('parseLinkHeader (RFC 8288 §3)', () => {
  it.each([
    ['<https://api.test/markets?page=2>; rel="next"', [{ target: 'https://api.test/markets?page=2', params: { rel: 'next' } }]],
    ['</m?c=a,b>; rel=next, </m>; rel="first"', [{ target: '/m?c=a,b', params: { rel: 'next' } }, { target: '/m', params: { rel: 'first' } }]],
    ['<a>; title="x, \\"y\\"; z"; rel="prev next"', [{ target: 'a', params: { title: 'x, "y"; z', rel: 'prev next' } }]],
    ['<a>; REL="Next"; rel=other', [{ target: 'a', params: { rel: 'Next' } }]],
    ['garbage, <b>; rel=next', [{ target: 'b', params: { rel: 'next' } }]],
    ['', []],
  ])('%s', (header, links) => {
    expect(parseLinkHeader(header)).toEqual(links);
  });
});

describe('findLinkTarget', () => {
  it.each([
    ['</p2>; rel="next"', '/p2'],
    ['</p1>; rel="prev", </p3>; rel="NEXT"', '/p3'],
    ['</p3>; rel="last next"', '/p3'],
    ['</p0>; rel="prev"', undefined],
    ['</p0>; rel="nextpage"', undefined],
    [null, undefined],
  ])('%s → %s', (header, target) => {
    expect(findLinkTarget(header, 'next')).toBe(target);
  });
});
