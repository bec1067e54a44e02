import { statSync } from 'node:fs';
import { MAX_CONFIG_FILE_BYTES } from '../floor/limits.js';
import { JsonInputError, readJsonBytes } from '../floor/bounded-json.js';
import { readRegularFileBytesSync, UnreadableFileError } from '../file-system/read-regular-file.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import type AjvFormats from 'ajv-formats';
import { nearestName } from '../floor/nearest-name.js';
import { CONFIG_FILE_NAME, SERVE_OPTIONS } from '../options/tables/serve-options.js';
import { pointerToken, valueAtPointer } from '../schema/finding.js';
import { expectedText } from '../floor/option-kind.js';
import { ConfigError, MISSING, optionKey, problem, type ConfigSection, type OptionProblem } from '../options/resolve-options.js';
import type { OptionSpec } from '../floor/option-spec.js';
import { buildConfigSchema, CONFIG_SECTIONS, type SchemaNode } from './config-schema.js';


/** Where the config file of a command comes from: `--config`, `MARKET_STUB_CONFIG`, or the working directory. */
export interface ConfigLocation {
  /** The path as given (messages show it as given) or `market-stub.config.json`. */
  file: string;
  /** `--config`, `MARKET_STUB_CONFIG`, or `working directory` when found there. */
  origin: string;
  /** Absolute path read. */
  absolute: string;
}

/**
 * Finds the config file: the `--config` flag, else `MARKET_STUB_CONFIG`, else
 * `market-stub.config.json` in `cwd` when it exists (its absence is not an error; a named file's is).
 */
export function locateConfigFile(flag: unknown, env: Readonly<Record<string, string | undefined>>, cwd: string): ConfigLocation | undefined {
  if (typeof flag === 'string' && flag !== '') return { file: flag, origin: '--config', absolute: path.resolve(cwd, flag) };
  for (const name of SERVE_OPTIONS.find((s) => s.flag === 'config')?.env ?? []) {
    const variable = env[name];
    if (variable !== undefined && variable !== '') return { file: variable, origin: name, absolute: path.resolve(cwd, variable) };
  }
  const here = path.resolve(cwd, CONFIG_FILE_NAME);
  try {
    return statSync(here).isFile() ? { file: CONFIG_FILE_NAME, origin: 'working directory', absolute: here } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a config file (at most MAX_CONFIG_FILE_BYTES), parses it and checks it against the config
 * JSON Schema (`schemas/config.schema.json`, built from the option tables) with every problem
 * worded as for flags: `market-stub.config.json /serve/port: expected an integer from 0 to 65535,
 * found "abc".` (file, JSON pointer, expected, found; secrets never shown). Relative `path`
 * options are resolved against the file's folder.
 * @returns the section of `command` (empty values when the file has none).
 * @throws ConfigError listing every problem.
 */
export function loadConfigSection(location: ConfigLocation, command: string): ConfigSection {
  const document = readConfigDocument(location);
  const problems = schemaProblems(location.file, document);
  if (problems.length > 0) throw new ConfigError(problems);
  const specs = CONFIG_SECTIONS[command] ?? [];
  const raw = ((document as Record<string, unknown>)[command] ?? {}) as Record<string, unknown>;
  const folder = path.dirname(location.absolute);
  const values = Object.fromEntries(Object.entries(raw).map(([key, value]) => {
    const spec = specs.find((s) => optionKey(s) === key);
    return [key, spec?.kind.type === 'path' && typeof value === 'string' ? path.resolve(folder, value) : value];
  }));
  return { values, file: location.file, origin: (key) => `${location.file} /${pointerToken(command)}/${pointerToken(key)}` };
}

/**
 * Reads a config file as fixture files are read (file-system/read-regular-file.ts: a regular file only,
 * opened non-blocking so a FIFO never blocks, at most MAX_CONFIG_FILE_BYTES) and parses it under
 * the JSON rules of floor/bounded-json.ts. Every error names the option or variable that gave the
 * path (`--config`, `MARKET_STUB_CONFIG`) and, for the content, the JSON pointer.
 * @throws ConfigError
 */
function readConfigDocument(location: ConfigLocation): unknown {
  const named = location.origin === 'working directory' ? location.file : `${location.origin} ${location.file}`;
  let bytes: Buffer;
  try {
    bytes = readRegularFileBytesSync(location.absolute, MAX_CONFIG_FILE_BYTES);
  } catch (error) {
    if (error instanceof UnreadableFileError && error.reason === 'too-large') throw new ConfigError(`${named}: expected a config file of at most ${MAX_CONFIG_FILE_BYTES} bytes, found a larger one.`);
    const code = (error as NodeJS.ErrnoException).code;
    const reason = error instanceof UnreadableFileError ? `${error.found}, not a file` : code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new ConfigError(`${location.origin}: cannot read the config file ${location.file} (${reason}).`);
  }
  try {
    return readJsonBytes(bytes);
  } catch (error) {
    if (!(error instanceof JsonInputError)) throw error;
    const option = error.pointer === undefined ? named : `${named} ${error.pointer || '/'}`;
    throw new ConfigError([{ option, pointer: error.pointer ?? '', expected: error.expected, found: error.what, message: `${option}: expected ${error.expected}, found ${error.what}.` }]);
  }
}

let validate: ValidateFunction | undefined;
const require = createRequire(import.meta.url);

/** The compiled config schema (ajv and ajv-formats loaded on first use, only when a config file exists). */
function configValidator(): ValidateFunction {
  if (validate) return validate;
  const { Ajv } = require('ajv') as { Ajv: typeof AjvClass };
  const addFormats = (require('ajv-formats') as typeof AjvFormats).default;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true });
  addFormats(ajv, ['date', 'date-time', 'uri']);
  const compiled = ajv.compile(buildConfigSchema());
  validate = compiled;
  return compiled;
}

/** Every schema violation as a problem: one per location, the first error there. */
function schemaProblems(file: string, document: unknown): OptionProblem[] {
  const fn = configValidator();
  if (fn(document)) return [];
  const seen = new Set<string>();
  const problems: OptionProblem[] = [];
  for (const error of fn.errors ?? []) {
    const located = locate(error);
    if (seen.has(located.pointer) || [...seen].some((p) => located.pointer.startsWith(`${p}/`))) continue;
    seen.add(located.pointer);
    problems.push(describe(file, document, located.pointer, error, located.unknownKey));
  }
  return problems;
}

function locate(error: ErrorObject): { pointer: string; unknownKey?: string } {
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as { additionalProperty: unknown }).additionalProperty);
    return { pointer: `${error.instancePath}/${pointerToken(key)}`, unknownKey: key };
  }
  if (error.keyword === 'required') return { pointer: `${error.instancePath}/${pointerToken(String((error.params as { missingProperty: unknown }).missingProperty))}` };
  return { pointer: error.instancePath };
}

function describe(file: string, document: unknown, pointer: string, error: ErrorObject, unknownKey: string | undefined): OptionProblem {
  const where = `${file} ${pointer || '/'}`;
  if (unknownKey !== undefined) {
    const known = Object.keys(((error.parentSchema as SchemaNode | undefined)?.['properties'] ?? {}) as object).filter((k) => k !== '$schema');
    const best = nearestName(unknownKey, known);
    const hint = best !== undefined ? ` Did you mean ${best}?` : '';
    const section = pointer.split('/').length > 2;
    return problem(where, section ? `a known option (${known.join(', ')})` : `a known section (${known.join(', ')})`, unknownKey, hint.trim(), pointer);
  }
  if (error.keyword === 'required') return { option: where, pointer, expected: 'a value (required)', found: MISSING, message: `${where}: expected a value (required), found nothing.` };
  const spec = optionAt(pointer);
  const expected = spec ? expectedText(spec.kind) : expectedOf(error.parentSchema as SchemaNode | undefined, error);
  if (spec?.secret) return problem(where, expected, undefined, 'The value is not shown: it may be a secret.', pointer);
  const found = valueAtPointer(document, pointer);
  // problem() shows a one-item array as its item (a flag given once); a file's array is shown as it is.
  return problem(where, expected, Array.isArray(found) ? [found] : found, '', pointer);
}

/** The option a pointer names (`/serve/port`), when it names one directly. */
function optionAt(pointer: string): OptionSpec | undefined {
  const [, section, key, ...rest] = pointer.split('/');
  if (rest.length > 0 || section === undefined || key === undefined) return undefined;
  return CONFIG_SECTIONS[section]?.find((s) => optionKey(s) === key && !s.cliOnly);
}

/** `expected …` for a schema node that is not an option (rules and behaviours), in the words option kinds use. */
function expectedOf(node: SchemaNode | undefined, error: ErrorObject): string {
  if (!node) return error.message ?? error.keyword;
  if (Array.isArray(node['enum'])) return `one of ${(node['enum'] as unknown[]).join(', ')}`;
  const range = (what: string) => (node['maximum'] === undefined ? `${what} ≥ ${String(node['minimum'] ?? 0)}` : `${what} from ${String(node['minimum'] ?? 0)} to ${String(node['maximum'])}`);
  switch (node['type']) {
    case 'integer': return range('an integer');
    case 'number': return range('a number');
    case 'boolean': return 'true or false';
    case 'string': return 'a non-empty string';
    case 'array': return 'an array';
    case 'object': return node['required'] ? `an object with ${(node['required'] as string[]).join(' and ')}` : 'an object';
    default: return error.message ?? error.keyword;
  }
}
