// The official SARIF 2.1.0 JSON schema (OASIS, the 2.1.0-rtm.5 schema) as the npm package
// @microsoft/jest-sarif ships it, compiled with ajv's draft-04 build (the schema is draft-04).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type AjvFormats from 'ajv-formats';
import type { Ajv as AjvCore, ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

/** Path of the schema file inside the installed package. */
export const SARIF_SCHEMA_FILE = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')), 'lib/schemas/sarif-2.1.0-rtm.5.json');

/** A validator for SARIF 2.1.0 logs: every error listed, formats checked (ajv-formats: uri, uri-reference, date-time, …). */
export function sarifValidator(): ValidateFunction {
  // Both are CommonJS with a default export; required as the project's config loader does.
  const Ajv = (require('ajv-draft-04') as { default: new (options: Record<string, unknown>) => AjvCore }).default;
  const addFormats = (require('ajv-formats') as typeof AjvFormats).default;
  // The schema's patterns are ECMA-262 without the u flag (its language-tag pattern is invalid with it).
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA_FILE, 'utf8')) as object);
}
