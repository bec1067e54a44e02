import type { DeviationContext, JsonObject, MarketDeviation, MarketViews } from './deviation-definition.js';
import { editBody } from './edit-body.js';
import { utf8 } from '../floor/bytes.js';

/** How a market's single answer deviates at request time; kept on its catalog entry (`CatalogEntry.deviated`). */
export interface DeviatedReply {
  /** Listed, but the single route answers 404. */
  readonly hidden?: boolean;
  /** Answer this status with a JSON error body in the profile's shape. */
  readonly status?: number;
  readonly contentType?: string;
  /** Extra delay, ms, added to the behaviours' own. */
  readonly delayMs?: number;
  /** Carries the retirement headers (VERSIONING_HEADERS). */
  readonly versioning?: boolean;
  /** Answers 304 to every request (ReplyEdit.notModified). */
  readonly notModified?: boolean;
  /** Carries an `ETag` pinned to the market, not its bytes (ReplyEdit.staleTag). */
  readonly staleTag?: boolean;
  /** What the journal and request log show: `deviation=string-price`. */
  readonly labels: readonly string[];
}

/** A market as served with its deviations. */
export interface DeviatedMarket {
  /** The single-market body, bytes as sent. */
  body: Uint8Array;
  /** The list item's JSON text. */
  summaryJson: string;
  /** The single-market view after the rewrites (before text and byte edits). */
  item: JsonObject;
  reply: DeviatedReply;
}

/**
 * Serves one market with its deviations, in stages: the view rewrites (JSON values of the list
 * item and the single body), serialisation, the text rewrites (then the list item's repetition), then the reply edits (bytes, media
 * type, status, delay). Every stage takes the deviations in catalogue order, so a combination
 * composes the same way every time. Pure: the same views, deviations and context give the same bytes.
 */
export function renderDeviatedMarket(views: MarketViews, deviations: readonly MarketDeviation[], ctx: DeviationContext): DeviatedMarket {
  let served = views;
  for (const d of deviations) if (d.views) served = d.views(served, ctx);
  let itemText = JSON.stringify(served.item);
  let summaryText = JSON.stringify(served.summary);
  for (const d of deviations) {
    if (d.itemText) itemText = d.itemText(itemText, ctx);
    if (d.summaryText) summaryText = d.summaryText(summaryText, ctx);
  }
  // Repeating the item comes last: every other text rewrite reads the item as one JSON object.
  if (deviations.some((d) => d.repeatsListItem)) summaryText = `${summaryText},${summaryText}`;
  let body: Uint8Array = utf8(itemText);
  let reply: { -readonly [K in keyof DeviatedReply]: DeviatedReply[K] } = { labels: deviations.map((d) => `deviation=${d.name}`) };
  for (const d of deviations) {
    if (d.hidesItem || d.hidesItemAt?.(ctx)) reply.hidden = true;
    const edit = d.reply;
    if (!edit) continue;
    if (edit.status !== undefined) reply.status = edit.status;
    if (edit.contentType !== undefined) reply.contentType = edit.contentType;
    if (edit.delayMs !== undefined) reply.delayMs = (reply.delayMs ?? 0) + edit.delayMs;
    if (edit.versioning) reply.versioning = true;
    if (edit.notModified) reply.notModified = true;
    if (edit.staleTag) reply.staleTag = true;
    body = editBody(body, edit);
  }
  reply = Object.freeze(reply);
  return { body, summaryJson: summaryText, item: served.item, reply };
}
