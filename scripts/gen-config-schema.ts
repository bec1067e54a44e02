// Writes schemas/config.schema.json from the option tables (src/config-file/config-schema.ts), so
// the tables stay the one definition of every option and editors complete and check config files.
//   npm run gen:config-schema            write it
//   npm run gen:config-schema -- --check exit 1 when the checked-in file is stale (the tests check it too)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildConfigSchema } from '../src/config-file/config-schema.js';

const OUT = new URL('../schemas/config.schema.json', import.meta.url);

/** The file's text: the schema as 2-space JSON with a final newline. */
export function renderConfigSchema(): string {
  return `${JSON.stringify(buildConfigSchema(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = renderConfigSchema();
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== text) {
      console.error('schemas/config.schema.json is stale: run `npm run gen:config-schema` and commit the result.');
      process.exitCode = 1;
    }
  } else {
    writeFileSync(OUT, text);
  }
}
