import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { crawlDeployment } from '../contract/index.js';
import { stageFixtureSet } from '../contract/index.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { RecordValues } from '../options/tables/crawl-options.js';
import type { ContractCliIo } from './cli-io.js';
import { couldNotRun, emitRefusalReport, emitReport, progressLine, redactingIo, resolveCrawlFlags, type CrawlFlags } from './run-check.js';

/**
 * `market-stub record`: crawls like `check`, then writes every valid single-market answer, as
 * received and in list order, to `--out DIR` as a fixture set `serve --fixtures DIR` reads. DIR is
 * checked before the crawl starts; markets are spooled to disk as they come and the set is
 * switched in one atomic step (contract/fixture-sets/fixture-set.ts). Invalid answers are reported and left
 * out (or written apart with --keep-invalid). When no market is valid, DIR is left unchanged.
 * @returns the exit code of `check` (0, 1), or 2 when the crawl or the write could not run.
 */
export async function runRecord(options: ResolvedOptions<RecordValues>, cliIo: ContractCliIo): Promise<number> {
  let io = cliIo;
  let settings: CrawlFlags | undefined;
  try {
    settings = await resolveCrawlFlags(options, cliIo.env);
    io = redactingIo(cliIo, settings.secrets);
    const { out, keepInvalid } = options.values;
    const staging = await stageFixtureSet(out, { where: options.origins.out ?? '--out' });
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
      io.stderr(`${await setLocation(written.file)}\n`);
    }
    await emitReport('record', result.report, settings, io);
    return result.report.exitCode;
  } catch (error) {
    await emitRefusalReport('record', error, settings, io);
    return couldNotRun('record', error, io);
  }
}

/**
 * Where the recorded set really is: `DIR/markets.json` is a symlink through DIR's pointer into
 * `DIR/.market-stub-sets/<version>/` (contract/fixture-sets/fixture-set.ts), which a copy without `-L` or a
 * commit of the link alone would lose (docs/record-layout.md).
 */
async function setLocation(file: string): Promise<string> {
  const real = await realpath(file);
  return `market-stub record: the set is in ${path.dirname(real)}; ${file} is a symlink to it. Copy it with 'cp -L' (a plain file) or copy DIR whole; docs/record-layout.md says what to commit.`;
}
