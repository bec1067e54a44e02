import { SERVE_OPTIONS } from '../config.js';
import { todayUtc } from '../core/market-rules.js';
import type { OptionSpec, ResolvedOptions } from '../options/resolve-options.js';
import { EXIT, type CliIo } from './cli-io.js';
import type { CommandSpec } from './command-spec.js';

const CATALOG_OPTIONS = ['seed', 'count', 'clock'].map((flag) => {
  const spec = SERVE_OPTIONS.find((o) => o.flag === flag);
  if (!spec) throw new Error(`SERVE_OPTIONS has no ${flag}`);
  return { ...spec, group: 'Catalog:' };
});

/** `market-stub generate`'s options: the catalog options of `serve` (same flags and variables), plus where to write. */
export const GENERATE_OPTIONS: readonly OptionSpec[] = [
  ...CATALOG_OPTIONS,
  { flag: 'out', env: ['MARKET_STUB_OUT'], kind: { type: 'path' }, defaultText: 'stdout', describe: 'File to write (atomically: a temporary file, fsync, rename)', group: 'Output:' },
];

export const generateCommand: CommandSpec = {
  name: 'generate',
  describe: 'Write a generated catalog as a fixtures file (stdout unless --out)',
  options: GENERATE_OPTIONS,
  examples: [
    ['$0 generate --seed 7 --count 250 --clock 2026-01-01 --out fixtures/generated.json', 'then: market-stub serve --fixtures fixtures/generated.json serves the same markets'],
    ['$0 generate --count 3', 'three markets on stdout'],
  ],
  load: async () => ({ run: runGenerate }),
};

/**
 * `market-stub generate`: writes the generated catalog for (seed, count, clock) as a fixtures file
 * (a JSON array, 2-space indented) that `serve --fixtures` reads back unchanged. With `--out`, the
 * file is written atomically (writeFileAtomic: temporary file, fsync, rename), never half-written.
 * @returns 0 on success; 2 on an unwritable file.
 */
export async function runGenerate(options: ResolvedOptions, io: CliIo): Promise<number> {
  const { values } = options;
  const seed = values['seed'] as number;
  const count = values['count'] as number;
  const clock = (values['clock'] as string | undefined) ?? todayUtc();
  const out = values['out'] as string | undefined;
  const [{ generateMarkets }, { writeFileAtomic }, { MarketStubError }] = await Promise.all([
    import('../catalog/generate-markets.js'), import('../core/write-file-atomic.js'), import('../core/market-stub-error.js'),
  ]);
  const text = `${JSON.stringify(generateMarkets(count, { seed, clock }), null, 2)}\n`;
  if (out === undefined) {
    io.stdout(text);
    return EXIT.ok;
  }
  try {
    await writeFileAtomic(out, text, options.origins['out'] ?? '--out');
  } catch (error) {
    if (!(error instanceof MarketStubError)) throw error;
    io.stderr(`market-stub generate: ${error.message}\n`);
    return EXIT.couldNotRun;
  }
  io.stderr(`market-stub generate: wrote ${count} markets (seed ${seed}, clock ${clock}) to ${out}\n`);
  return EXIT.ok;
}
