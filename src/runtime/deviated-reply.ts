import type { CatalogEntry } from '../catalog/market-catalog.js';
import { VERSIONING_HEADERS, type ListDeviation } from '../deviation/deviation-definition.js';
import { editBody, editChunks } from '../deviation/edit-body.js';
import { pinnedTag } from './conditional-reply.js';
import { errorReply } from './error-reply.js';
import { jsonReply, type Reply } from './reply.js';
import type { ResponseProfile } from './response-profile.js';

// Edited list bodies per rendered body (the unpaged list is one cached buffer per catalog view).
const editedLists = new WeakMap<Uint8Array, Map<ListDeviation, Uint8Array>>();

/**
 * The single-market reply of an entry served with a deviation (`entry.deviated` set): an error in
 * the profile's shape for a deviation status, else its body (already edited) with the deviation's
 * media type.
 */
export function deviatedItemReply(entry: CatalogEntry, profile: ResponseProfile): Reply {
  const deviated = entry.deviated;
  if (deviated?.status !== undefined && deviated.status >= 400) {
    return errorReply(profile.errors, deviated.status, 'internal_error', `The market could not be read (market-stub ${deviated.labels.join(', ')}).`, { market_id: entry.market.market_id });
  }
  // The entry keeps its body: a shared reply, its entity tag hashed once (conditional-reply.ts).
  const reply: Reply = { ...jsonReply(entry.body), shared: true };
  if (deviated?.contentType !== undefined) reply.headers['content-type'] = deviated.contentType;
  if (deviated?.versioning) addVersioningHeaders(reply.headers);
  if (deviated?.notModified) reply.notModified = true;
  if (deviated?.staleTag) reply.tag = pinnedTag(entry.market.market_id);
  return reply;
}

/**
 * A rendered `GET /markets` reply with deviations of the whole list applied in catalogue order:
 * a status (an error body in the profile's shape), a media type, a `Link` back to `target` (the
 * request's path and query), and byte edits (streamed lists are edited as they stream).
 */
export function deviatedListReply(rendered: Reply, deviations: readonly ListDeviation[], profile: ResponseProfile, target: string): Reply {
  let reply = rendered;
  for (const deviation of deviations) {
    const edit = deviation.reply;
    if (edit.status !== undefined) {
      reply = errorReply(profile.errors, edit.status, 'internal_error', `The market list could not be read (market-stub deviation=${deviation.name}).`);
      continue;
    }
    if (edit.contentType !== undefined) reply.headers['content-type'] = edit.contentType;
    if (edit.loopLink) reply.headers['link'] = `<${target}>; rel="next"`;
    if (edit.versioning) addVersioningHeaders(reply.headers);
    if (edit.notModified) reply.notModified = true;
    if (edit.clockSkewMs !== undefined) reply.dateSkewMs = edit.clockSkewMs;
    if (edit.body === undefined && !edit.bom) continue;
    if (reply.chunks) reply = { ...reply, chunks: editChunks(reply.chunks, edit) };
    else reply = { ...reply, body: editedList(reply.body, deviation) };
  }
  return reply;
}

/** VERSIONING_HEADERS added to `headers`; a `Link` already there (another deviation's) is kept, the links joined. */
function addVersioningHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(VERSIONING_HEADERS)) headers[name] = name === 'link' && headers[name] ? `${headers[name]}, ${value}` : value;
}

function editedList(body: Uint8Array, deviation: ListDeviation): Uint8Array {
  let edits = editedLists.get(body);
  if (!edits) editedLists.set(body, (edits = new Map()));
  let edited = edits.get(deviation);
  if (!edited) edits.set(deviation, (edited = editBody(body, deviation.reply)));
  return edited;
}
