// Refreshes the vendored CI schemas in test/data/ci-schemas/ (see its README) from the npm packages
// that carry them, fetched with `npm pack` (the npm registry is the only network CI machines reach):
//   - SchemaStore's github-workflow.json ($id https://json.schemastore.org/github-workflow.json),
//     embedded verbatim in @action-validator/core's WebAssembly module;
//   - GitLab's CI schema ($id https://gitlab.com/.gitlab-ci.yml, the file SchemaStore's gitlab-ci
//     entry points to), bundled into gitlab-ci-local's dist/index.js as an object literal.
// Neither package is installed or run (gitlab-ci-local needs Node 22; action-validator is GPL-3.0
// and only its data is used). Run by hand: node scripts/vendor-ci-schemas.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

const SOURCES = { github: '@action-validator/core@0.6.0', gitlab: 'gitlab-ci-local@4.75.1' };
const OUT = new URL('../test/data/ci-schemas/', import.meta.url);

/** Index just past the JSON object (or JS object literal) starting at `start`: braces counted outside strings. */
function objectEnd(text, start) {
  let depth = 0;
  let quote = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  throw new Error('unterminated object');
}

function unpack(spec, dir) {
  const file = execFileSync('npm', ['pack', spec, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').at(-1);
  execFileSync('tar', ['xzf', file], { cwd: dir });
  return path.join(dir, 'package');
}

const work = mkdtempSync(path.join(tmpdir(), 'ci-schemas-'));
try {
  const github = unpack(SOURCES.github, mkdtempSync(path.join(work, 'gh-')));
  const wasm = readFileSync(path.join(github, 'action_validator_bg.wasm'));
  const latin = wasm.toString('latin1');
  const id = latin.indexOf('"$id": "https://json.schemastore.org/github-workflow.json"');
  const start = latin.lastIndexOf('{\n', id);
  const workflow = JSON.parse(wasm.subarray(start, objectEnd(latin, start)).toString('utf8'));
  writeFileSync(new URL('github-workflow.json', OUT), `${JSON.stringify(workflow, null, 2)}\n`);

  const gitlab = unpack(SOURCES.gitlab, mkdtempSync(path.join(work, 'gl-')));
  const bundle = readFileSync(path.join(gitlab, 'dist', 'index.js'), 'utf8');
  const at = bundle.indexOf('{$schema:"http://json-schema.org/draft-07/schema#",$id:"https://gitlab.com/.gitlab-ci.yml"');
  const literal = bundle.slice(at, objectEnd(bundle, at));
  // A plain object literal of strings, numbers, arrays and objects: evaluated with no globals and a time limit.
  const ci = vm.runInNewContext(`(${literal})`, Object.create(null), { timeout: 1000 });
  writeFileSync(new URL('gitlab-ci.json', OUT), `${JSON.stringify(ci, null, 2)}\n`);
  console.log(`wrote github-workflow.json from ${SOURCES.github} and gitlab-ci.json from ${SOURCES.gitlab}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
