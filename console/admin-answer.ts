// Reading one admin answer, bounded (no DOM: testable under Node).

/** An admin API answer other than 2xx: its status and the admin error body's message (or the status text). */
export class AdminCallError extends Error {
  constructor(readonly status: number, message: string, readonly route: string) {
    super(message);
    this.name = 'AdminCallError';
  }
}

/** Largest admin answer the console reads, bytes (a 10,000-market catalog is about 2 MB). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The body as text, read chunk by chunk and cancelled past MAX_ANSWER_BYTES (chunked answers carry no Content-Length). */
export async function readBounded(response: Response, route: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new AdminCallError(response.status, `${route}: the answer is over ${MAX_ANSWER_BYTES} bytes, more than the console reads; narrow it (a smaller catalog, ?limit=)`, route);
    }
    text += decoder.decode(value, { stream: true });
  }
}
