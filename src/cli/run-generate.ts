import { MarketStubError } from '../floor/market-stub-error.js';
import { todayUtc } from '../floor/market-rules.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { GenerateValues } from '../options/tables/generate-options.js';
import { EXIT, type CliIo } from './cli-io.js';
import { namesDirectory, streamCatalog, writeCatalogDirectory, writeCatalogFile } from './write-generated-catalog.js';
import { MAX_FIXTURE_FILE_BYTES } from '../floor/limits.js';

// `generate`'s one lazy load (generateCommand.load): the generator and the writers load with it.

/**
 * `market-stub generate`: writes the generated catalog for (seed, count, clock) as fixtures that
 * `serve --fixtures` reads back unchanged (a JSON array, 2-space indented), streamed one market at
 * a time, so every count runs in the same memory (write-generated-catalog.ts). Without --out it
 * goes to stdout and stops quietly, exit 0, when the reader hangs up (`| head`). `--out FILE` is
 * written atomically and refused (LIMIT_EXCEEDED, nothing written) beyond the 64 MiB limit of one
 * fixture file; `--out DIR/` (or an existing directory) splits the catalog into files within it.
 * @returns 0 on success; 2 on an unwritable output, a refused size or an interruption.
 */
export async function runGenerate(options: ResolvedOptions<GenerateValues>, io: CliIo): Promise<number> {
  const { seed, count, out } = options.values;
  const clock = options.values.clock ?? todayUtc();
  const where = options.origins.out ?? '--out';
  const spec = { count, seed, clock, signal: io.signal };
  try {
    if (out === undefined) {
      const { bytes, closed } = await streamCatalog(spec, io.stdoutStream);
      if (!closed && bytes > MAX_FIXTURE_FILE_BYTES) io.stderr(`market-stub generate: note: ${bytes} bytes written, over the ${MAX_FIXTURE_FILE_BYTES / 2 ** 20} MiB limit of one fixture file; as one file, validate and serve --fixtures refuse it. Use --out DIR/ to split the markets into files within the limit.\n`);
      return EXIT.ok;
    }
    if (await namesDirectory(out)) {
      const files = await writeCatalogDirectory(spec, out, where);
      io.stderr(`market-stub generate: wrote ${count} markets (seed ${seed}, clock ${clock}) to ${out} in ${files} file${files === 1 ? '' : 's'}\n`);
      return EXIT.ok;
    }
    await writeCatalogFile(spec, out, where);
  } catch (error) {
    if (!(error instanceof MarketStubError)) throw error;
    io.stderr(`market-stub generate: ${error.message}\n`);
    return EXIT.couldNotRun;
  }
  io.stderr(`market-stub generate: wrote ${count} markets (seed ${seed}, clock ${clock}) to ${out}\n`);
  return EXIT.ok;
}
