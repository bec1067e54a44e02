import { describe, expect, it } from 'vitest';
import { AdminCallError, MAX_ANSWER_BYTES, readBounded } from '../../console/admin-answer.js';

// The console reads at most MAX_ANSWER_BYTES of one admin answer, Content-Length or not.
describe('readBounded', () => {
  it('reads a chunked answer whole, multi-byte characters split across chunks included', async () => {
    const bytes = new TextEncoder().encode('{"title":"€ and ✓"}');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    expect(await readBounded(new Response(stream), 'GET /__stub/markets')).toBe('{"title":"€ and ✓"}');
  });

  it('cancels an endless answer once past the limit and names the route', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const error = await readBounded(new Response(endless), 'GET /__stub/markets').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminCallError);
    expect((error as AdminCallError).message).toMatch(/^GET \/__stub\/markets: the answer is over 16777216 bytes/);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(MAX_ANSWER_BYTES / chunk.length + 3);
  });
});
