import { describe, expect, it } from 'vitest';
import type { ReplyEdit } from './deviation-definition.js';
import { editBody, editChunks, HTML_PAGE } from './edit-body.js';

const list = Buffer.from('[{"market_id":"A"},{"market_id":"B"}]');
const envelope = Buffer.from('{"markets":[{"market_id":"A"}],"next_cursor":null}');
const chunked = (body: Buffer, size: number) => Buffer.concat([...editChunks(Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size)), edits.current)]);
const edits: { current: ReplyEdit } = { current: {} };

describe('editBody and editChunks', () => {
  it.each<[string, ReplyEdit]>([['bom', { bom: true }], ['html', { body: 'html' }], ['nested', { body: 'nested' }], ['nested with bom', { body: 'nested', bom: true }], ['nothing', {}]])('%s: a chunked body gets the same bytes as a whole one', (_name, edit) => {
    edits.current = edit;
    for (const body of [list, envelope]) expect(chunked(body, 7).toString('latin1')).toBe(Buffer.from(editBody(body, edit)).toString('latin1'));
  });

  it('nests a bare list under payload.markets and an envelope under payload (a wrapper no standard names), so no market array is at the top', () => {
    expect(JSON.parse(Buffer.from(editBody(list, { body: 'nested' })).toString())).toEqual({ payload: { markets: [{ market_id: 'A' }, { market_id: 'B' }] } });
    expect(JSON.parse(Buffer.from(editBody(envelope, { body: 'nested' })).toString())).toEqual({ payload: { markets: [{ market_id: 'A' }], next_cursor: null } });
  });

  it('cuts a body in half (a one-byte body keeps its byte) and a stream within its first MiB', () => {
    expect(Buffer.from(editBody(list, { body: 'truncated' })).toString()).toBe(list.subarray(0, Math.floor(list.length / 2)).toString());
    expect(editBody(Buffer.from('['), { body: 'truncated' })).toHaveLength(1);
    const big = Array.from({ length: 40 }, () => Buffer.alloc(65_536, 0x20));
    const cut = Buffer.concat([...editChunks(big, { body: 'truncated' })]);
    expect(cut.length).toBe(524_288);
  });

  it('replaces the body with an HTML page and leaves the given buffer untouched', () => {
    const before = Buffer.from(list);
    expect(Buffer.from(editBody(list, { body: 'html', bom: true })).subarray(3).equals(HTML_PAGE)).toBe(true);
    expect(list.equals(before)).toBe(true);
  });
});
