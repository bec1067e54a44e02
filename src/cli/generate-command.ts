import { ConfigError, resolveServeConfig, type RawFlags } from '../config.js';
import { generateMarkets } from '../catalog/generate-markets.js';
import { MarketStubError } from '../core/market-stub-error.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { EXIT, type CliIo } from './cli-io.js';

/**
 * `market-stub generate`: writes the generated catalog for (seed, count, clock) as a fixtures file
 * (a JSON array, 2-space indented) that `serve --fixtures` reads back unchanged. With `--out`, the
 * file is written atomically (writeFileAtomic: temporary file, fsync, rename), never half-written.
 * @returns 0 on success; 2 on a bad option or an unwritable file.
 */
export async function runGenerate(flags: RawFlags & { out?: string }, io: CliIo): Promise<number> {
  let config;
  try {
    config = resolveServeConfig({ seed: flags['seed'], count: flags['count'], clock: flags['clock'] }, io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`market-stub generate: ${error.message}\n`);
      return EXIT.couldNotRun;
    }
    throw error;
  }
  const text = `${JSON.stringify(generateMarkets(config.count, { seed: config.seed, clock: config.clock }), null, 2)}\n`;
  if (!flags.out) {
    io.stdout(text);
    return EXIT.ok;
  }
  try {
    await writeFileAtomic(flags.out, text, '--out');
  } catch (error) {
    if (!(error instanceof MarketStubError)) throw error;
    io.stderr(`market-stub generate: ${error.message}\n`);
    return EXIT.couldNotRun;
  }
  io.stderr(`market-stub generate: wrote ${config.count} markets (seed ${config.seed}, clock ${config.clock}) to ${flags.out}\n`);
  return EXIT.ok;
}
