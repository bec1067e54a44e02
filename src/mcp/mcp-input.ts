import { Transform, type TransformCallback } from 'node:stream';
import { MAX_MCP_MESSAGE_BYTES } from '../floor/limits.js';

/** A JSON-RPC 2.0 error answer (JSON-RPC 2.0 §5.1): -32700 parse error, -32600 invalid request. */
export interface JsonRpcErrorLine {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/**
 * Stage in front of the SDK's stdio transport: passes on each line of stdin that is one JSON-RPC
 * message, and answers every other line itself (`answer`) instead of leaving it to the transport,
 * which would only report it to the server's onerror (and closes on a line over its buffer):
 * - a line over MAX_MCP_MESSAGE_BYTES: -32600, skipped while it is read (never held whole);
 * - a line that is not JSON: -32700 Parse error (JSON-RPC 2.0 §5.1), id null;
 * - JSON that is not a JSON-RPC 2.0 request, notification or response (`isMessage`: the SDK's own
 *   schema): -32600 Invalid Request, with the id when it has a usable one.
 * Blank lines are skipped. Each answer is one line; nothing a line held is echoed back.
 */
export function createMcpInput(isMessage: (value: unknown) => boolean, answer: (line: JsonRpcErrorLine) => void, limit = MAX_MCP_MESSAGE_BYTES): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const refuse = (id: JsonRpcErrorLine['id'], code: number, message: string) => answer({ jsonrpc: '2.0', id, error: { code, message } });
  const finishLine = (push: (line: Buffer) => void) => {
    const line = Buffer.concat(pending);
    pending = [];
    size = 0;
    if (skipping) {
      skipping = false;
      return;
    }
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    const checked = checkLine(text, isMessage);
    if (checked === undefined) push(Buffer.concat([line, NEWLINE]));
    else refuse(checked.id, checked.code, checked.message);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let start = 0;
      for (let end = chunk.indexOf(10, start); ; end = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
        if (!skipping) {
          size += piece.length;
          if (size > limit) {
            skipping = true;
            pending = [];
            refuse(null, -32600, `Invalid Request: a message over ${limit} bytes (market-stub mcp reads at most ${limit} bytes a message: docs/limits.md); it was skipped`);
          } else pending.push(Buffer.from(piece));
        }
        if (end === -1) break;
        finishLine((line) => this.push(line));
        start = end + 1;
      }
      done();
    },
    flush(done: TransformCallback) {
      if (pending.length > 0 || skipping) finishLine((line) => this.push(line));
      done();
    },
  });
}

const NEWLINE = Buffer.from('\n');

/** Why a line is not one JSON-RPC message, or undefined when it is one. */
function checkLine(text: string, isMessage: (value: unknown) => boolean): { id: JsonRpcErrorLine['id']; code: number; message: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: null, code: -32700, message: 'Parse error: the line is not JSON (market-stub mcp reads one JSON-RPC 2.0 message per line, UTF-8)' };
  }
  if (isMessage(value)) return undefined;
  const id = (value as { id?: unknown } | null)?.id;
  const usable = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  return { id: usable, code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message ({"jsonrpc":"2.0","id":…,"method":…,"params"?:…}); batches are not read' };
}
