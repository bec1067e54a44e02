import yargs, { type Argv } from 'yargs';
import { EXIT, type CliIo } from './cli-io.js';
import { runServe, serveOptions } from './serve-command.js';
import { runGenerate } from './generate-command.js';
import { runValidate } from './validate-command.js';
import { crawlOptions, runCheck } from './check-command.js';
import { recordOptions, runRecord } from './record-command.js';
import { proxyOptions, runProxy } from './proxy-command.js';
import type { RawFlags } from '../config.js';

/**
 * Runs the market-stub command line and resolves to its exit code (0 ok, 1 failed check, 2 could
 * not run). Never exits the process; `src/cli.ts` does that with the returned code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  let usageError: string | undefined;
  const parser = yargs([...argv])
    .scriptName('market-stub')
    .usage('$0 <command> [options]\n\nStub server and contract checker for the Prediction Market Data Service.')
    .env(false)
    .command('serve', 'Serve GET /markets and GET /markets/{market_id} from generated markets or fixtures', (y: Argv) => serveOptions(y)
      .example('$0 serve', 'generated markets on http://127.0.0.1:4010')
      .example('$0 serve --port 0 --seed 7 --count 250 --clock 2026-01-01', 'a reproducible catalog on a free port')
      .example('$0 serve --fixtures fixtures', 'the real-sample markets in fixtures/'), async (args) => {
      exitCode = await runServe(args as RawFlags, io);
    })
    .command('generate', 'Write a generated catalog as a fixtures file (stdout unless --out)', (y: Argv) => y
      .option('seed', { type: 'string', requiresArg: true, describe: 'Catalog seed [default: 1]' })
      .option('count', { type: 'string', requiresArg: true, describe: 'Number of markets [default: 100]' })
      .option('clock', { type: 'string', requiresArg: true, describe: 'Clock date YYYY-MM-DD (UTC) [default: today]' })
      .option('out', { type: 'string', requiresArg: true, describe: 'File to write (atomically)' }), async (args) => {
      exitCode = await runGenerate(args as RawFlags & { out?: string }, io);
    })
    .command('validate <path>', 'Check a fixture file or directory offline (exit 0 valid, 1 invalid, 2 unreadable)', (y: Argv) => y
      .positional('path', { type: 'string', describe: 'Fixture JSON file or directory of JSON files' }), async (args) => {
      exitCode = await runValidate(String(args['path']), io);
    })
    .command('check', 'Check a real deployment against the contract (exit 0 pass, 1 errors found, 2 could not run)', (y: Argv) => crawlOptions(y)
      .example('$0 check --base-url http://127.0.0.1:4010', 'list + 50 markets, text report')
      .example('$0 check --base-url https://api.example.com/v1 --header "Authorization: Bearer $TOKEN" --all --format junit --output check.xml', 'every market, JUnit XML for CI'), async (args) => {
      exitCode = await runCheck(args, io);
    })
    .command('record', 'Crawl a deployment like check and write its valid markets as a fixture set', (y: Argv) => recordOptions(y)
      .example('$0 record --base-url http://127.0.0.1:4010 --all --out fixtures/recorded', 'then: $0 serve --fixtures fixtures/recorded'), async (args) => {
      exitCode = await runRecord(args, io);
    })
    .command('proxy', 'Pass-through proxy to a deployment for a client test run: checks (and with --record, records) the market answers', (y: Argv) => proxyOptions(y)
      .example('$0 proxy --upstream https://api.example.com/v1 --port 4011 --record fixtures/seen --report proxy-report.json --format json', 'point the client under test at http://127.0.0.1:4011'), async (args) => {
      exitCode = await runProxy(args, io);
    })
    .demandCommand(1, 'Name a command: serve, generate, validate, check, record or proxy.')
    .strict()
    .help()
    .version()
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      usageError = message;
    });
  let output = '';
  await parser.parseAsync([...argv], {}, (_err, _args, out) => {
    output = out;
  });
  if (usageError !== undefined) {
    io.stderr(`${output ? `${output}\n\n` : ''}market-stub: ${usageError}\n`);
    return EXIT.couldNotRun;
  }
  if (output) io.stdout(`${output}\n`);
  return exitCode;
}
