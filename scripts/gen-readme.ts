// Regenerates the generated sections of the documentation from the code that defines them, so the
// docs and the code have one source: each section sits between `<!-- generated:NAME -->` and
// `<!-- /generated:NAME -->` in one of GENERATED_DOCS and is rendered by SECTIONS[NAME].
//
//   npm run gen:readme            rewrite docs/configuration.md, docs/deviations.md, docs/options.md and docs/mcp.md
//   (test/docs/generated-sections.test.ts fails when a document differs from what this renders)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../src/cli/commands.js';
import type { OptionKind } from '../src/floor/option-kind.js';
import type { OptionSpec } from '../src/floor/option-spec.js';
import { deviationTable, unprovokedTable } from '../src/deviation/deviation-table.js';
import { RESOURCES, toolListings } from '../src/mcp/mcp-server.js';


/** `integer 0–65535`, `one of text, json, junit`… the kind as a table cell. */
function kindCell(kind: OptionKind): string {
  switch (kind.type) {
    case 'integer': return `integer ${kind.min.toLocaleString('en-US')}–${kind.max.toLocaleString('en-US')}`;
    case 'number': return `number ${kind.min}–${kind.max}`;
    case 'choice': return kind.choices.map((c) => `\`${c}\``).join(' \\| ');
    case 'list': return kind.separator === ',' ? 'list (repeat the flag, or comma-separate)' : 'list (repeat the flag; one per line in the variable)';
    case 'url': return 'http(s) URL';
    case 'token': return 'token (printable ASCII)';
    default: return kind.type;
  }
}

function defaultCell(spec: OptionSpec): string {
  if (spec.required !== undefined) return '**required**';
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (spec.default === undefined) return 'none';
  return `\`${Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default)}\``;
}

/** The options of one command as a Markdown table: flag, environment variables, kind, default, meaning. */
export function optionTable(command: string): string {
  const spec = COMMANDS.find((c) => c.name === command);
  if (!spec) throw new Error(`no command ${command}`);
  const rows = spec.options.map((o) => {
    const flag = o.positional ? `\`${o.flag.toUpperCase()}\` (argument)` : `\`--${o.flag}\``;
    const env = (o.env ?? []).map((e) => `\`${e}\``).join(', ') || '—';
    const meaning = o.describe.replaceAll('|', '\\|');
    return `| ${flag} | ${env} | ${kindCell(o.kind)} | ${defaultCell(o)} | ${meaning} |`;
  });
  return ['| option | environment | kind | default | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The rows of a command that feed a library option (`feeds`) as a Markdown table: the CLI → library loop, as data. */
export function feedsTable(command: string): string {
  const spec = COMMANDS.find((c) => c.name === command);
  if (!spec) throw new Error(`no command ${command}`);
  const rows = spec.options.filter((o) => o.feeds !== undefined).map((o) => `| \`--${o.flag}\` | \`${o.feeds}\` | ${kindCell(o.kind)} |`);
  return ['| option | library option | kind |', '|---|---|---|', ...rows].join('\n');
}

/** The tools of `market-stub mcp` as a Markdown table: name, what it does (its admin route), what it takes, read-only or not. */
export function mcpToolTable(): string {
  const rows = toolListings().map((tool) => {
    const properties = Object.keys((tool.inputSchema['properties'] ?? {}) as object);
    const required = (tool.inputSchema['required'] ?? []) as string[];
    const takes = properties.map((p) => `\`${p}\`${required.includes(p) ? '' : '?'}`).join(', ') || '—';
    return `| \`${tool.name}\` | ${tool.description.replaceAll('|', '\\|')} | ${takes} | ${tool.annotations.readOnlyHint ? 'yes' : 'no'} |`;
  });
  return ['| tool | what it does | arguments | read-only |', '|---|---|---|---|', ...rows].join('\n');
}

/** The resources of `market-stub mcp` as a Markdown table. */
export function mcpResourceTable(): string {
  return ['| resource | what it holds |', '|---|---|', ...RESOURCES.map((r) => `| \`${r.uri}\` | ${r.description} |`)].join('\n');
}

/** Every generated section by name. */
export const SECTIONS: Record<string, () => string> = {
  ...Object.fromEntries(COMMANDS.map((c) => [`options-${c.name}`, () => optionTable(c.name)])),
  // The deviation catalogue (src/deviation) and the findings no deviation provokes.
  'feeds-serve': () => feedsTable('serve'),
  'feeds-check': () => feedsTable('check'),
  'feeds-proxy': () => feedsTable('proxy'),
  deviations: deviationTable,
  'unprovoked-findings': unprovokedTable,
  // The MCP server's tools (one per control-table row, then openapi and check) and resources.
  'mcp-tools': mcpToolTable,
  'mcp-resources': mcpResourceTable,
};

/** The documents holding generated sections (paths from the repository root), each section in exactly one. */
export const GENERATED_DOCS: readonly string[] = ['docs/configuration.md', 'docs/deviations.md', 'docs/options.md', 'docs/mcp.md'];

/**
 * A document's text with every generated section rendered anew.
 * @param file the document's path, for the error message only.
 * @throws Error naming a section marker without its renderer.
 */
export function renderGeneratedSections(text: string, file: string): string {
  return text.replace(/<!-- generated:([\w-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g, (_all, name: string) => {
    const render = SECTIONS[name];
    if (!render) throw new Error(`${file} has a section "${name}" that scripts/gen-readme.ts does not render`);
    return `<!-- generated:${name} -->\n${render()}\n<!-- /generated:${name} -->`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of GENERATED_DOCS) {
    const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
    const before = readFileSync(path, 'utf8');
    const after = renderGeneratedSections(before, file);
    writeFileSync(path, after);
    process.stdout.write(before === after ? `${file} is up to date\n` : `${file}: generated sections rewritten\n`);
  }
}
