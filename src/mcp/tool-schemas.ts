import { buildConfigSchema, kindSchema, type SchemaNode } from '../config-file/config-schema.js';
import { DEVIATIONS } from '../deviation/deviation-catalogue.js';
import { DURATION_EXPECTED, INSTANT_EXPECTED } from '../floor/instant.js';
import { MAX_CLOCK_RATE, MAX_DEVIATED_MARKET_IDS, MAX_DEVIATION_SETTINGS, MAX_JOURNAL_READ, MAX_MARKETS_PER_CALL, MAX_TICKS_PER_CALL } from '../floor/limits.js';
import { int, INSTANT } from '../floor/option-kind.js';
import { RATE_EXPECTED } from '../catalog/stub-clock.js';
import type { ControlBody, ControlRow } from '../runtime/control-table.js';
import { FILTER_FIELDS } from '../runtime/stub-controls.js';
import { loadMarketSchema } from '../schema/market-schema.js';

// The JSON Schemas of the MCP tools' inputs (src/mcp/control-tools.ts), derived from what the
// controls check: the option kinds (floor/option-kind.ts through kindSchema), the limits
// (floor/limits.ts), the market schema (schemas/market.schema.json), the config file's Behaviour
// and Rule (config-file/config-schema.ts), the deviation catalogue and the journal filter's fields
// (FILTER_FIELDS). They describe; the stub still checks every call, so a call that passes the schema
// and breaks a rule the schema cannot say (an instant before the clock's) gets the admin API's problem.

const marketSchema = (): SchemaNode => ({ $ref: '#/$defs/Market' });
const deviationNames = (scope?: 'market'): string[] => DEVIATIONS.filter((d) => scope === undefined || d.scope === scope).map((d) => d.name);

/** The schema of each body a control reads (ControlBody), by name; a Record, so a new body name does not compile without its schema. */
const BODY_SCHEMAS: Readonly<Record<ControlBody, () => SchemaNode>> = {
  markets: () => ({ description: `Every market of the new catalog (all or nothing; at most ${MAX_MARKETS_PER_CALL}).`, type: 'array', maxItems: MAX_MARKETS_PER_CALL, items: marketSchema() }),
  market: () => ({ description: 'One market ($defs/Market of schemas/market.schema.json).', ...marketSchema() }),
  patch: () => ({ description: 'An RFC 7396 JSON merge patch of the market: members to set, null to remove one; market_id cannot change.', type: 'object' }),
  tick: () => ({ type: 'object', additionalProperties: false, properties: { n: { description: 'Ticks to move (default 1).', ...kindSchema(int(1, MAX_TICKS_PER_CALL)) } } }),
  clockChange: () => ({
    description: 'Any of to, advance, rate (applied in that order, all checked first); the clock moves forward only.',
    type: 'object', additionalProperties: false, minProperties: 1,
    properties: {
      to: { description: `The new stub instant: ${INSTANT_EXPECTED}, not before the clock's.`, ...kindSchema(INSTANT) },
      advance: { description: `Move forward by ${DURATION_EXPECTED}.`, type: 'string', pattern: '^P' },
      rate: { description: `The new rate: ${RATE_EXPECTED}.`, type: 'number', minimum: 0, maximum: MAX_CLOCK_RATE },
    },
  }),
  deviationSettings: () => ({
    description: 'Every deviation in force ([] clears them): every market ({name}), a seeded share ({name, rate}) or named markets ({name, marketIds}); a list deviation takes neither.',
    type: 'array', maxItems: MAX_DEVIATION_SETTINGS,
    items: {
      type: 'object', additionalProperties: false, required: ['name'],
      properties: {
        name: { description: 'A deviation of the catalogue (the deviations tool lists each with what it does).', type: 'string', enum: deviationNames() },
        rate: { description: 'Share of markets, 0 to 1, chosen by a hash of seed and market_id (the same markets every run).', type: 'number', minimum: 0, maximum: 1 },
        marketIds: { description: 'These markets only (each in the catalog).', type: 'array', maxItems: MAX_DEVIATED_MARKET_IDS, items: { type: 'string', minLength: 1 } },
      },
    },
  }),
  deviationNames: () => ({ description: 'The market deviations of this market ([] clears them).', type: 'array', items: { type: 'string', enum: deviationNames('market') } }),
  behaviour: () => ({ $ref: '#/$defs/Behaviour' }),
  rule: () => ({ $ref: '#/$defs/Rule' }),
};

/** A journal filter's field as JSON Schema (FILTER_FIELDS: what checkFilter accepts). */
function filterFieldSchema(kind: (typeof FILTER_FIELDS)[keyof typeof FILTER_FIELDS]): SchemaNode {
  switch (kind) {
    case 'string': return { type: 'string' };
    case 'status': return { type: 'integer', minimum: 100, maximum: 599 };
    case 'count': return { description: `The newest N matching entries (at most ${MAX_JOURNAL_READ}).`, type: 'integer', minimum: 0, maximum: MAX_JOURNAL_READ };
    case 'traceId': return { description: 'A W3C trace-id (32 hex digits) or a whole traceparent.', type: 'string', pattern: '^([0-9a-fA-F]{2}-)?[0-9a-fA-F]{32}(-[0-9a-fA-F]{16}-[0-9a-fA-F]{2})?$' };
  }
}

/** The journal filter: the query of GET /__stub/requests as an object. */
export function filterSchema(): SchemaNode {
  const properties = Object.fromEntries(Object.entries(FILTER_FIELDS).map(([field, kind]) => [field, filterFieldSchema(kind)]));
  return { description: 'Which journal entries: every field optional, all must match.', type: 'object', additionalProperties: false, properties };
}

/** `{id}` of a control's path: a market's id, or a behaviour rule's. */
function idSchema(row: ControlRow): SchemaNode {
  return row.path.startsWith('/behaviours/rules/')
    ? { description: 'The id of a behaviour rule (the behaviours tool lists them).', type: 'string', minLength: 1 }
    : { description: 'A market_id of the catalog.', type: 'string', minLength: 1 };
}

/**
 * The input schema of a control's tool: an object with `id` (when the path has `{id}`), `body`
 * (when the route reads one: its ControlBody's schema) and `filter` (when it reads a journal
 * filter), with the definitions the body refers to. `id` and a body that is not optional
 * (every one but tick's) are required.
 */
export function controlInputSchema(row: ControlRow): SchemaNode {
  const properties: Record<string, SchemaNode> = {};
  const required: string[] = [];
  if (row.path.includes('{id}')) {
    properties['id'] = idSchema(row);
    required.push('id');
  }
  if (row.body !== undefined) {
    properties['body'] = BODY_SCHEMAS[row.body]();
    if (row.body !== 'tick') required.push('body');
  }
  if (row.query === 'filter') properties['filter'] = filterSchema();
  const schema: SchemaNode = { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
  const definitions = definitionsFor(JSON.stringify(properties));
  return Object.keys(definitions).length > 0 ? { ...schema, $defs: definitions } : schema;
}

/**
 * The `$defs` a schema's text refers to, and those they refer to in turn: of the market schema's
 * (`Market` and the definitions it uses) and the config file's (`Behaviour`, `Rule`). Boolean
 * subschemas become their object forms (`false` → `{"not":{}}`), which every client's JSON Schema
 * support reads (the MCP Inspector's --strict portability check asks for them).
 */
function definitionsFor(text: string): Record<string, unknown> {
  const config = JSON.parse(JSON.stringify(buildConfigSchema()['definitions']).replaceAll('#/definitions/', '#/$defs/')) as Record<string, unknown>;
  const available: Record<string, unknown> = { ...loadMarketSchema().$defs, ...config };
  const definitions: Record<string, unknown> = {};
  const pending = [...refsIn(text)];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (Object.hasOwn(definitions, name) || !Object.hasOwn(available, name)) continue;
    definitions[name] = objectForms(available[name]);
    pending.push(...refsIn(JSON.stringify(available[name])));
  }
  return definitions;
}

const refsIn = (text: string): string[] => [...text.matchAll(/"#\/\$defs\/([A-Za-z]+)"/g)].map((m) => m[1]!);

/** A schema with its boolean subschemas under `properties` in object form (`true` → `{}`, `false` → `{"not":{}}`). */
function objectForms(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(objectForms);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === 'properties' && value !== null && typeof value === 'object'
    ? Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, sub === false ? { not: {} } : sub === true ? {} : objectForms(sub)]))
    : objectForms(value)]));
}
