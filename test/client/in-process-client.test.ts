// The contract of the handle, run against the in-process handle of startMarketStub.
import { startMarketStub } from '../../src/index.js';
import { CONTRACT_STUB, describeMarketStubClient } from '../support/market-stub-client-contract.js';

describeMarketStubClient('startMarketStub (in process)', async () => {
  const stub = await startMarketStub({ ...CONTRACT_STUB });
  return { client: stub, close: () => stub.close() };
});
