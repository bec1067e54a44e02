import { afterEach, expect, inject, test } from 'vitest';

// The stub started by global-setup.ts; its admin API (/__stub) controls it from this worker.
const url = inject('marketStubUrl');

async function admin(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}/__stub${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
}

afterEach(async () => {
  await admin('DELETE', '/behaviours');
});

test('serves the list and each market', async () => {
  const list = await fetch(`${url}/markets`);
  expect(list.status).toBe(200);
  const markets = (await list.json()) as { market_id: string }[];
  expect(markets).toHaveLength(5);

  const one = await fetch(`${url}/markets/${encodeURIComponent(markets[0]!.market_id)}`);
  expect(one.status).toBe(200);
  expect(await one.json()).toMatchObject({ market_id: markets[0]!.market_id, resolution_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
});

test('a 503 injected over the admin API is answered and journaled', async () => {
  await admin('DELETE', '/requests');
  expect((await admin('POST', '/behaviours/rules', { match: { route: 'item' }, behaviour: { status: 503 } })).status).toBe(201);

  const markets = (await (await fetch(`${url}/markets`)).json()) as { market_id: string }[];
  const item = await fetch(`${url}/markets/${encodeURIComponent(markets[1]!.market_id)}`);
  expect(item.status).toBe(503);

  const journal = (await (await admin('GET', '/requests?status=503')).json()) as { requests: { path: string; status: number }[] };
  expect(journal.requests).toEqual([expect.objectContaining({ path: `/markets/${markets[1]!.market_id}`, status: 503 })]);
  const listed = (await (await admin('GET', '/requests/count?path=/markets')).json()) as { count: number };
  expect(listed.count).toBe(1);
});
