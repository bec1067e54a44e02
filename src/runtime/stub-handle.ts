import { LIBRARY_CONTROLS, type MarketStubClient } from './control-table.js';
import type { StubControls } from './stub-controls.js';

/**
 * The handle of a stub in this process (startMarketStub's, the MSW adapter's, the Fetch
 * handler's) at `url`: one method per library row of the control table (control-table.ts), each
 * the StubControls call of the same name (or the row's `local`), named `stub.<method>` in errors
 * and asynchronous like the remote client's (a throw becomes a rejection).
 */
export function createHandle(controls: StubControls, url: string): MarketStubClient {
  const handle: Record<string, unknown> = { url };
  for (const { name, library } of LIBRARY_CONTROLS) {
    const where = `stub.${name}`;
    const control = controls[name as keyof StubControls] as (where: string, ...args: unknown[]) => unknown;
    const run = library.local ?? ((_controls: StubControls, at: string, ...args: unknown[]) => control(at, ...args));
    handle[name] = (...args: unknown[]): Promise<unknown> => {
      try {
        return Promise.resolve(run(controls, where, ...args));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    };
  }
  return handle as unknown as MarketStubClient;
}
