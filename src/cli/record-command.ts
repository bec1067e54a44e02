import type { Argv } from 'yargs';
import { ContractRunError } from '../contract/contract-run-error.js';
import { crawlDeployment } from '../contract/crawl-deployment.js';
import { stageFixtureSet } from '../contract/fixture-set.js';
import { couldNotRun, crawlOptions, emitReport, progressLine, redactingIo, resolveCrawlFlags, type ContractCliIo } from './check-command.js';

/** Declares `record`'s options: the crawl options of `check`, plus where to write. */
export function recordOptions(y: Argv): Argv {
  return crawlOptions(y)
    .option('out', { type: 'string', requiresArg: true, demandOption: true, describe: 'Fixture directory to write (DIR/markets.json); switched to the new set atomically' })
    .option('keep-invalid', { type: 'boolean', describe: 'Also write the invalid answers, apart, to DIR/invalid/responses.json (serve never reads it)' });
}

/**
 * `market-stub record`: crawls like `check`, then writes every valid single-market answer, as
 * received and in list order, to `--out DIR` as a fixture set `serve --fixtures DIR` reads. DIR is
 * checked before the crawl starts; markets are spooled to disk as they come and the set is
 * switched in one atomic step (contract/fixture-set.ts). Invalid answers are reported and left
 * out (or written apart with --keep-invalid). When no market is valid, DIR is left unchanged.
 * @returns the exit code of `check` (0, 1), or 2 when the crawl or the write could not run.
 */
export async function runRecord(flags: Record<string, unknown>, cliIo: ContractCliIo): Promise<number> {
  let io = cliIo;
  try {
    const settings = resolveCrawlFlags(flags);
    io = redactingIo(cliIo, settings.secrets);
    const out = String(flags['out'] ?? '');
    if (out.trim() === '') throw new ContractRunError('OPTION_INVALID', '--out: expected a directory path.');
    const keepInvalid = flags['keep-invalid'] === true;
    const staging = await stageFixtureSet(out, { where: '--out' });
    const progress = progressLine('record', io);
    let result;
    try {
      result = await crawlDeployment({ ...settings.crawl, command: 'record', spool: staging.spool, collectInvalid: keepInvalid, signal: io.signal, onProgress: progress.update });
    } catch (error) {
      await staging.abandon();
      throw error;
    } finally {
      progress.clear();
    }
    if (result.spooled.length === 0) {
      await staging.abandon();
      io.stderr(`market-stub record: no valid market to record; ${out} was left unchanged.\n`);
    } else {
      const written = await staging.commit({ order: result.spooled, ...(keepInvalid ? { invalid: result.invalid } : {}) });
      const apart = written.invalidFile ? `; ${result.invalid.length} invalid answer${result.invalid.length === 1 ? '' : 's'} kept apart in ${written.invalidFile}` : '';
      const left = result.report.summary.marketsChecked - written.markets;
      io.stderr(`market-stub record: wrote ${written.markets} market${written.markets === 1 ? '' : 's'} to ${written.file}${left > 0 && !written.invalidFile ? ` (${left} invalid or missing, not written)` : ''}${apart}\n`);
    }
    await emitReport('record', result.report, settings, io);
    return result.report.exitCode;
  } catch (error) {
    return couldNotRun('record', error, io);
  }
}
