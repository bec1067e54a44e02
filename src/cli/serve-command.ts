import type { Argv } from 'yargs';
import { ConfigError, resolveServeConfig, SERVE_OPTIONS, type RawFlags } from '../config.js';
import { FixtureError, formatFixtureProblems } from '../catalog/load-fixtures.js';
import { createLogger, resolveLogFormat } from '../logger.js';
import { BehaviourError } from '../behaviour/behaviour.js';
import { launchStub } from '../stub.js';
import { EXIT, type CliIo } from './cli-io.js';

/** Declares serve's options on a yargs instance (types are validated later by resolveServeConfig). */
export function serveOptions(y: Argv): Argv {
  let out = y;
  for (const spec of SERVE_OPTIONS) {
    out = out.option(spec.cli, {
      describe: `${spec.describe} [env ${spec.env.join(', ')}] [default: ${spec.defaultText}]`,
      group: spec.group,
      type: spec.kind === 'boolean' ? 'boolean' : spec.kind === 'list' ? 'array' : 'string',
      ...(spec.choices ? { choices: spec.choices } : {}),
      ...(spec.kind === 'boolean' ? { default: undefined } : { requiresArg: true }),
    });
  }
  return out;
}

/**
 * `market-stub serve`: resolves options, builds the catalog (validating fixtures: nothing is bound
 * when they are bad), listens, prints the ready line and serves until `io.signal` aborts.
 * @returns 0 after a graceful stop; 2 when options or fixtures are bad or the port cannot be bound.
 */
export async function runServe(flags: RawFlags, io: CliIo): Promise<number> {
  let config;
  try {
    config = resolveServeConfig(flags, io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`market-stub serve: ${error.message} Run 'market-stub serve --help' for the options.\n`);
      return EXIT.couldNotRun;
    }
    throw error;
  }
  const logFormat = resolveLogFormat(config.logFormat, io.isTTY);
  const logger = createLogger({ format: logFormat, destination: io.stdoutStream === process.stdout ? 1 : io.stdoutStream, colorize: io.isTTY });
  let launched;
  try {
    launched = await launchStub({
      port: config.port,
      host: config.host,
      seed: config.seed,
      count: config.count,
      clock: config.clock,
      ...(config.fixtures !== undefined ? { fixtures: config.fixtures, watch: config.watch } : {}),
      profile: config.profile,
      behaviour: config.behaviour,
      rules: config.rules,
      globalFaults: config.globalFaults,
      journalSize: config.journalSize,
      journalBytes: config.journalBytes,
      journalHeaders: config.journalHeaders,
      allowedHosts: config.allowedHosts,
      shutdownGraceMs: config.shutdownGraceMs,
      cors: config.cors,
      admin: config.admin,
      ...(config.adminToken !== undefined ? { adminToken: config.adminToken } : {}),
      ...(config.quiet ? {} : { logger }),
    });
  } catch (error) {
    if (error instanceof FixtureError) {
      io.stderr(`market-stub serve: ${formatFixtureProblems(error.problems, error.location)}\n`);
      return EXIT.couldNotRun;
    }
    if (error instanceof BehaviourError) {
      io.stderr(`market-stub serve: ${error.message}. Run 'market-stub serve --help' for the options.\n`);
      return EXIT.couldNotRun;
    }
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') {
      io.stderr(`market-stub serve: cannot listen on ${config.host}:${config.port} (${e.code}). Choose another --port (0 picks a free one) or --host.\n`);
      return EXIT.couldNotRun;
    }
    throw error;
  }
  const { stub, runtime } = launched;
  const catalog = runtime.store.current();
  const ready = `market-stub listening on ${stub.url} serving ${catalog.description}`;
  if (logFormat === 'json') logger.info({ url: stub.url, source: catalog.source, count: catalog.size, seed: config.fixtures ? undefined : config.seed, clock: config.clock }, ready);
  else io.stdout(`${ready}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await stub.close();
  logger.flush();
  return EXIT.ok;
}
