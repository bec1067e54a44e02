// The contract of the handle, run against the MSW adapter's handle: the handlers answer in this
// process through msw/node's setupServer (no server listening); the suite's own fetch calls to
// `${client.url}` are intercepted, while its in-process reference stub is a real server (bypassed).
import { setupServer } from 'msw/node';
import { createMarketStubHandlers } from '../../src/msw.js';
import { CONTRACT_STUB, describeMarketStubClient } from '../support/market-stub-client-contract.js';

describeMarketStubClient('createMarketStubHandlers (MSW, msw/node)', async () => {
  const { handlers, stub } = createMarketStubHandlers({ ...CONTRACT_STUB, baseUrl: 'http://contract.market-stub.test' });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'bypass' });
  return { client: stub, close: async () => server.close() };
});
