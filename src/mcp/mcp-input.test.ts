import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMcpInput, type JsonRpcErrorLine } from './mcp-input.js';

// The line stage in front of the SDK's stdio transport: each line is passed on whole or answered
// with exactly one JSON-RPC error, whatever bytes it holds, however the chunks cut it.
const isMessage = (value: unknown): boolean => value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === '2.0' && typeof (value as { method?: unknown }).method === 'string';

async function through(chunks: readonly Buffer[], limit?: number): Promise<{ passed: string[]; answers: JsonRpcErrorLine[] }> {
  const answers: JsonRpcErrorLine[] = [];
  const input = createMcpInput(isMessage, (line) => answers.push(line), limit);
  let out = '';
  input.on('data', (d: Buffer) => (out += d.toString('utf8')));
  await new Promise<void>((resolve, reject) => Readable.from(chunks).pipe(input).on('end', resolve).on('error', reject));
  return { passed: out.split('\n').filter(Boolean), answers };
}

describe('createMcpInput', () => {
  it('passes messages on whole, across any cut of the chunks', async () => {
    const text = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\r\n`;
    for (let cut = 0; cut <= text.length; cut += 7) {
      const { passed, answers } = await through([Buffer.from(text.slice(0, cut)), Buffer.from(text.slice(cut))]);
      expect(passed.map((l) => (JSON.parse(l) as { method: string }).method)).toEqual(['ping', 'notifications/initialized']);
      expect(answers).toEqual([]);
    }
  });

  it('answers each line that is not a message exactly once, and never passes it on (property)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.string({ unit: 'binary' }).filter((s) => !s.includes('\n') && s.trim() !== ''), { maxLength: 8 }), async (lines) => {
      const bad = lines.filter((l) => !isMessage((() => { try { return JSON.parse(l.replace(/\r$/, '')) as unknown; } catch { return undefined; } })()));
      const { passed, answers } = await through([Buffer.from(lines.map((l) => `${l}\n`).join(''))]);
      expect(answers).toHaveLength(bad.length);
      expect(passed).toHaveLength(lines.length - bad.length);
      for (const answer of answers) expect([-32700, -32600]).toContain(answer.error.code);
    }), { numRuns: 100 });
  });

  it('skips a line over the limit while reading it, with one -32600, and reads the next', async () => {
    const ping = `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`;
    const { passed, answers } = await through([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'), Buffer.alloc(300, 'x'), Buffer.alloc(300, 'y'), Buffer.from(`"}\n${ping}`)], 256);
    expect(answers).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('256 bytes') as string } }]);
    expect(passed).toEqual([ping.trim()]);
  });

  it('keeps the id of an invalid request that has a usable one', async () => {
    const { answers } = await through([Buffer.from('{"id":5,"method":"x"}\n{"id":{"a":1}}\n')]);
    expect(answers.map((a) => a.id)).toEqual([5, null]);
  });
});
