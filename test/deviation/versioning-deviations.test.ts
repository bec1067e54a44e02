// The retirement deviations serve RFC 9745 / RFC 8594 headers as real APIs do, over HTTP, and
// compose with another deviation's Link header instead of replacing it.
import { describe, expect, it } from 'vitest';
import { startMarketStub } from '../../src/index.js';
import { findLinkTarget } from '../../src/contract/paging/link-header.js';

describe('deprecation-headers and item-deprecated', () => {
  it('the list carries Deprecation, Sunset and both links, joined with the paging-loop deviation\'s rel="next"', async () => {
    const stub = await startMarketStub({ seed: 3, count: 4, clock: '2026-01-01', deviations: [{ name: 'deprecation-headers' }, { name: 'list-paging-loop' }] });
    try {
      const list = await fetch(`${stub.url}/markets`);
      await list.arrayBuffer();
      expect(list.headers.get('deprecation')).toBe('@1767225600');
      expect(list.headers.get('sunset')).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
      const link = list.headers.get('link');
      expect(findLinkTarget(link, 'next')).toBe('/markets');
      expect(findLinkTarget(link, 'successor-version')).toBe('/v2/markets');
      expect(findLinkTarget(link, 'deprecation')).toBe('/docs/deprecation');
      // A single market is not deprecated by a list deviation.
      const id = (await stub.catalog())[0]?.market_id ?? '';
      const item = await fetch(`${stub.url}/markets/${encodeURIComponent(id)}`);
      await item.arrayBuffer();
      expect(item.headers.get('deprecation')).toBeNull();
    } finally {
      await stub.close();
    }
  });

  it('item-deprecated marks only the chosen markets, and not the list', async () => {
    const probe = await startMarketStub({ seed: 3, count: 4, clock: '2026-01-01' });
    const ids = (await probe.catalog()).map((m) => m.market_id);
    await probe.close();
    const stub = await startMarketStub({ seed: 3, count: 4, clock: '2026-01-01', deviations: [{ name: 'item-deprecated', marketIds: [ids[1] as string] }] });
    try {
      const headersOf = async (path: string) => {
        const answer = await fetch(`${stub.url}${path}`);
        await answer.arrayBuffer();
        return [answer.headers.get('deprecation'), answer.headers.get('sunset')];
      };
      expect(await headersOf(`/markets/${encodeURIComponent(ids[1] as string)}`)).toEqual(['@1767225600', 'Tue, 01 Jan 2030 00:00:00 GMT']);
      expect(await headersOf(`/markets/${encodeURIComponent(ids[0] as string)}`)).toEqual([null, null]);
      expect(await headersOf('/markets')).toEqual([null, null]);
    } finally {
      await stub.close();
    }
  });
});
