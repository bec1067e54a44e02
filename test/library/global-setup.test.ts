import { describe, expect, inject, it } from 'vitest';

describe('a stub started once in vitest globalSetup', () => {
  it('is reachable from a test file through inject()', async () => {
    const url = inject('marketStubUrl');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const list = (await (await fetch(`${url}/markets`)).json()) as { market_id: string }[];
    expect(list).toHaveLength(30);
    const one = await fetch(`${url}/markets/${list[0]?.market_id ?? ''}`);
    expect(one.status).toBe(200);
  });
});
