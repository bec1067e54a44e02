import { TRANSPORT_FAULTS } from '../behaviour/behaviour.js';
import { MAX_DELAY_MS } from '../floor/limits.js';
import { BEHAVIOUR_OPTIONS, CONFIG_FILE_NAME, SERVE_OPTIONS } from '../options/tables/serve-options.js';
import { optionKey } from '../options/resolve-options.js';
import type { OptionSpec } from '../floor/option-spec.js';
import type { OptionKind } from '../floor/option-kind.js';

/** A JSON Schema node (draft-07), as plain JSON. */
export type SchemaNode = Record<string, unknown>;

/** `$id` of schemas/config.schema.json (the same base as the market schema's). */
export const CONFIG_SCHEMA_ID = 'https://market-stub.local/schemas/config.schema.json';

/** The sections of a config file: one per command that reads one, with that command's options. */
export const CONFIG_SECTIONS: Readonly<Record<string, readonly OptionSpec[]>> = { serve: SERVE_OPTIONS };

/**
 * The JSON Schema of `market-stub.config.json`, derived from the option tables (SERVE_OPTIONS)
 * so that they stay the one definition: each option that is not `cliOnly` is a property of its
 * section under its key, typed by its kind, with its help text, variables and default; `serve`
 * also takes `rules`, behaviour rules inline. Draft-07, the draft every editor's JSON support
 * reads (VS Code, JetBrains, yaml-language-server). `scripts/gen-config-schema.ts` writes it to
 * `schemas/config.schema.json`; a test fails when that file is stale.
 */
export function buildConfigSchema(): SchemaNode {
  const sections = Object.fromEntries(Object.entries(CONFIG_SECTIONS).map(([name, specs]) => [name, sectionSchema(name, specs)]));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: CONFIG_SCHEMA_ID,
    title: 'market-stub configuration',
    description: `${CONFIG_FILE_NAME} (or --config FILE, MARKET_STUB_CONFIG): options of market-stub commands. Precedence: flag > environment variable > this file > default. Relative paths are relative to this file's folder.`,
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'This schema, for editors: node_modules/market-stub/schemas/config.schema.json' },
      ...sections,
    },
    definitions: { Rule: ruleSchema(), Behaviour: behaviourSchema() },
  };
}

function sectionSchema(name: string, specs: readonly OptionSpec[]): SchemaNode {
  const properties: Record<string, SchemaNode> = {};
  for (const spec of specs) {
    if (spec.cliOnly || spec.positional) continue;
    properties[optionKey(spec)] = optionSchema(spec);
  }
  if (name === 'serve') {
    properties['rules'] = {
      description: 'Behaviour rules inline, applied in order (the same objects as a --behaviours file holds); a --behaviours file given by flag or environment replaces them.',
      type: 'array',
      items: { $ref: '#/definitions/Rule' },
    };
  }
  return { description: `Options of \`market-stub ${name}\`, by the camelCase of their flag.`, type: 'object', additionalProperties: false, properties };
}

function optionSchema(spec: OptionSpec): SchemaNode {
  const variables = spec.env?.length ? ` Environment: ${spec.env.join(', ')}.` : '';
  const secret = spec.secret ? ' A secret: prefer the environment variable to a file under version control.' : '';
  const node: SchemaNode = { description: `${spec.describe}. Flag: --${spec.flag}.${variables}${secret}`, ...kindSchema(spec.kind) };
  if (spec.default !== undefined && !spec.secret) node['default'] = spec.default;
  return node;
}

/** The schema of one option kind: as strict as `readTyped` (option-kind.ts), which reads the same values. */
export function kindSchema(kind: OptionKind): SchemaNode {
  const text = { type: 'string', minLength: 1, pattern: '\\S' };
  switch (kind.type) {
    case 'integer': return { type: 'integer', minimum: kind.min, maximum: kind.max };
    case 'number': return { type: 'number', minimum: kind.min, maximum: kind.max };
    case 'boolean': return { type: 'boolean' };
    case 'choice': return { type: 'string', enum: [...kind.choices] };
    case 'string':
    case 'path': return text;
    case 'token': return { type: 'string', minLength: 1, pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$' };
    case 'date': return { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
    // The year's digits hold the range (1970–9999); the formats hold the calendar and the clock.
    case 'instant': return { type: 'string', pattern: '^(19[7-9][0-9]|[2-9][0-9]{3})-[0-9]{2}-[0-9]{2}([Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2}))?$', anyOf: [{ type: 'string', format: 'date' }, { type: 'string', format: 'date-time' }] };
    // The length (PT1S to P366D) is checked where the step is read (floor/instant.ts parseStep).
    case 'step': return { type: 'string', pattern: '^P(?!$)([0-9]{1,9}W)?([0-9]{1,9}D)?(T(?=[0-9])([0-9]{1,9}H)?([0-9]{1,9}M)?([0-9]{1,9}([.,][0-9]{1,9})?S)?)?$' };
    case 'url': return { type: 'string', format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://' };
    case 'list': return { type: 'array', minItems: 1, items: text };
  }
}

/** A Behaviour: the fields of the serve options that set the global behaviour (BEHAVIOUR_OPTIONS), plus dribbleMs. */
function behaviourSchema(): SchemaNode {
  const properties: Record<string, SchemaNode> = {};
  for (const [field, key] of Object.entries(BEHAVIOUR_OPTIONS)) {
    const spec = SERVE_OPTIONS.find((s) => optionKey(s) === key);
    if (!spec) throw new Error(`BEHAVIOUR_OPTIONS names ${key}, which is not a serve option`);
    properties[field] = { description: `${spec.describe} (like --${spec.flag}).`, ...kindSchema(spec.kind) };
  }
  properties['dribbleMs'] = { description: 'With fault slow-body: the time over which the body is dribbled, ms (default 2000).', ...kindSchema({ type: 'integer', min: 0, max: MAX_DELAY_MS }) };
  return { description: `What to do to a response; every field optional. Faults: ${TRANSPORT_FAULTS.join(', ')}.`, type: 'object', additionalProperties: false, properties };
}

function ruleSchema(): SchemaNode {
  return {
    description: 'A behaviour for matching market requests, optionally for the next `times` matches only.',
    type: 'object',
    additionalProperties: false,
    required: ['match', 'behaviour'],
    properties: {
      id: { description: 'Rule id (a later rule with the same id replaces it); generated when absent.', type: 'string', minLength: 1 },
      match: {
        description: 'Which requests the rule applies to; {} matches every market request.',
        type: 'object',
        additionalProperties: false,
        properties: {
          route: { description: 'list is GET /markets, item is GET /markets/{market_id}.', type: 'string', enum: ['list', 'item'] },
          marketId: { description: 'Exact market_id of item requests.', type: 'string', minLength: 1 },
          method: { description: 'HTTP method (GET, HEAD).', type: 'string', minLength: 1 },
        },
      },
      behaviour: { $ref: '#/definitions/Behaviour' },
      times: { description: 'Apply to the next N matching requests only.', type: 'integer', minimum: 1 },
    },
  };
}
