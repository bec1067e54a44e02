import type { Argv } from 'yargs';
import { ContractRunError } from '../contract/contract-run-error.js';
import { crawlDeployment } from '../contract/crawl-deployment.js';
import { writeFixtureSet } from '../contract/write-fixture-set.js';
import { couldNotRun, crawlOptions, emitReport, progressLine, resolveCrawlFlags, type ContractCliIo } from './check-command.js';

/** Declares `record`'s options: the crawl options of `check`, plus where to write. */
export function recordOptions(y: Argv): Argv {
  return crawlOptions(y)
    .option('out', { type: 'string', requiresArg: true, demandOption: true, describe: 'Fixture directory to write (DIR/markets.json); replaced as a whole, atomically' })
    .option('keep-invalid', { type: 'boolean', describe: 'Also write the invalid answers, apart, to DIR/invalid/responses.json (serve never reads it)' });
}

/**
 * `market-stub record`: crawls like `check`, then writes every valid single-market answer, as
 * received and in list order, to `--out DIR` as a fixture set `serve --fixtures DIR` reads
 * (atomically: the previous set is replaced only once the new one is complete). Invalid answers
 * are reported and left out (or written apart with --keep-invalid). When no market is valid, DIR
 * is left unchanged.
 * @returns the exit code of `check` (0, 1), or 2 when the crawl or the write could not run.
 */
export async function runRecord(flags: Record<string, unknown>, io: ContractCliIo): Promise<number> {
  try {
    const settings = resolveCrawlFlags(flags);
    const out = String(flags['out'] ?? '');
    if (out.trim() === '') throw new ContractRunError('OPTION_INVALID', '--out: expected a directory path.');
    const keepInvalid = flags['keep-invalid'] === true;
    const progress = progressLine('record', io);
    let result;
    try {
      result = await crawlDeployment({ ...settings.crawl, command: 'record', collectMarkets: true, collectInvalid: keepInvalid, signal: io.signal, onProgress: progress.update });
    } finally {
      progress.clear();
    }
    if (result.markets.length === 0) {
      io.stderr(`market-stub record: no valid market to record; ${out} was left unchanged.\n`);
    } else {
      const written = await writeFixtureSet(out, result.markets, keepInvalid ? result.invalid : undefined);
      const apart = written.invalidFile ? `; ${result.invalid.length} invalid answer${result.invalid.length === 1 ? '' : 's'} kept apart in ${written.invalidFile}` : '';
      const left = result.report.summary.marketsChecked - result.markets.length;
      io.stderr(`market-stub record: wrote ${result.markets.length} market${result.markets.length === 1 ? '' : 's'} to ${written.file}${left > 0 && !written.invalidFile ? ` (${left} invalid or missing, not written)` : ''}${apart}\n`);
    }
    await emitReport('record', result.report, settings, io);
    return result.report.exitCode;
  } catch (error) {
    return couldNotRun('record', error, io);
  }
}
