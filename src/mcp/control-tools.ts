import { optionError } from '../floor/market-stub-error.js';
import { knownName } from '../floor/option-fields.js';
import { CONTROLS, type ControlRequest, type ControlRow } from '../runtime/control-table.js';
import type { SchemaNode } from '../config-file/config-schema.js';
import { controlInputSchema } from './tool-schemas.js';

/** An MCP tool as `tools/list` lists it (MCP 2025-06-18, server/tools): name, description, input schema, hints. */
export interface ToolListing {
  name: string;
  title?: string;
  description: string;
  inputSchema: SchemaNode;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** A control's tool: its listing and the control-table row it calls. */
export interface ControlTool extends ToolListing {
  row: ControlRow;
}

/**
 * The tools of the stub's controls: one per row of the control table (src/runtime/control-table.ts),
 * in its order, named after the row (`tick`, `setClock`, `requests`), described by its route's doc
 * and admin route, its input schema derived from what the route reads (tool-schemas.ts). A GET is
 * read-only; a DELETE, and a PUT that replaces a whole set, destroy what was there.
 */
export function controlTools(): ControlTool[] {
  return CONTROLS.map((row) => ({
    name: row.name,
    description: `${capitalised(row.doc)}. Admin API: ${row.method} /__stub${row.path}.`,
    inputSchema: controlInputSchema(row),
    annotations: {
      readOnlyHint: row.method === 'GET',
      destructiveHint: row.method === 'DELETE' || (row.method === 'PUT' && !row.path.includes('{id}')) || row.name === 'reset',
      idempotentHint: row.method !== 'POST',
      openWorldHint: false,
    },
    row,
  }));
}

/**
 * The admin API request of one call of a control's tool: `{id}` of the path from `id`, the body from
 * `body`, the query from `filter` (a journal filter: each field as the query parameter of the same
 * name). Only what the row's schema lists is taken.
 * @throws MarketStubError OPTION_INVALID naming the argument (`arguments.id`, an unknown name with the known ones).
 */
export function controlRequest(row: ControlRow, args: Record<string, unknown>, where: string): ControlRequest {
  const known = Object.keys((controlInputSchema(row)['properties'] ?? {}) as object);
  for (const key of Object.keys(args)) if (!known.includes(key)) throw optionError(where, `arguments.${key}`, known.length === 0 ? 'no arguments' : knownName(key, known, 'an argument of this tool'), key);
  let path = row.path;
  if (path.includes('{id}')) {
    const id = args['id'];
    if (typeof id !== 'string' || id === '' || id === '.' || id === '..') throw optionError(where, 'arguments.id', 'a non-empty id (a market_id, or a rule id for removeRule), not "." or ".."', id);
    path = path.replace('{id}', encodeURIComponent(id));
  }
  const request: ControlRequest = { method: row.method, path };
  if (row.body !== undefined) {
    // tick alone takes no body: `{}` is its default (n = 1), as the remote client sends it.
    const body = args['body'] ?? (row.body === 'tick' ? {} : undefined);
    if (body === undefined) throw optionError(where, 'arguments.body', 'the JSON body the route reads (see the input schema)', body);
    request.body = body;
    request.bodyOption = 'arguments.body';
    if (row.body === 'patch') request.contentType = 'application/merge-patch+json';
  }
  if (row.query === 'filter' && args['filter'] !== undefined) request.query = filterQuery(args['filter'], where);
  return request;
}

/** A journal filter as query parameters (strings and numbers only: what a query carries; the stub checks the values as GET /__stub/requests does). */
function filterQuery(filter: unknown, where: string): URLSearchParams {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw optionError(where, 'arguments.filter', 'an object such as {"path":"/markets","limit":20}', filter);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) throw optionError(where, `arguments.filter.${key}`, 'a string or a number', value);
    query.set(key, String(value));
  }
  return query;
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
