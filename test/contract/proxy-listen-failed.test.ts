import { createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarketStubError, startRecordingProxy } from '../../src/index.js';
import { runCliProcess } from '../support/cli-process.js';

// A listener that cannot bind fails the same way for the stub and the proxy: MarketStubError
// LISTEN_FAILED naming the option to change, the system error kept as its cause.
describe('recording proxy on a taken port', () => {
  let busy: Server;
  let port: number;
  beforeEach(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as { port: number }).port;
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => busy.close(() => resolve()));
  });

  it('startRecordingProxy rejects with LISTEN_FAILED naming the port, as startMarketStub does', async () => {
    const error = (await startRecordingProxy({ upstream: 'http://127.0.0.1:9', port }).catch((e: unknown) => e)) as MarketStubError;
    expect(error).toBeInstanceOf(MarketStubError);
    expect(error).toMatchObject({ code: 'LISTEN_FAILED', option: 'port', where: 'startRecordingProxy' });
    expect(error.message).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    expect(error.message).toContain(`port ${port} is already in use`);
    expect((error.cause as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
  });

  it('market-stub proxy --port <taken> exits 2 naming the port, with no stack trace', async () => {
    const res = await runCliProcess(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', String(port)]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`market-stub proxy: cannot listen on 127.0.0.1:${port} (EADDRINUSE). Choose another --port (0 picks a free one) or --host.`);
    expect(res.stderr).not.toContain('startRecordingProxy');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
