// market-stub/testcontainers: start the market-stub image from a test, as WireMock's
// Testcontainers module does, and drive it with the same client as an in-process stub.
// testcontainers (10.x) is an optional peer dependency: only this entry point imports it.
import { statSync } from 'node:fs';
import { DEFAULT_MARKET_STUB_IMAGE, DEFAULT_STARTUP_TIMEOUT_MS } from './floor/limits.js';
import path from 'node:path';
import { AbstractStartedContainer, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
// Only the public API, from './index.js': the build makes that the package itself ('market-stub'),
// so this entry shares its one copy (one MarketStubError class) instead of bundling another.
import { connectMarketStub, MarketStubError, serveEnvironment, type ConnectMarketStubOptions, type MarketStubClient, type ResponseProfile, type ServeOptionValue } from './index.js';

/** The port the stub listens on inside the container (the image's PORT). */
export const MARKET_STUB_PORT = 4010;
/** Where withFixtures() copies fixtures in the container (the image's documented mount point). */
export const FIXTURES_PATH = '/fixtures';
/** The image started when none is given, and the time it gets to answer GET /healthz (ms): src/floor/limits.ts. */
export { DEFAULT_MARKET_STUB_IMAGE, DEFAULT_STARTUP_TIMEOUT_MS };
/** Where withConfigFile() copies a config file: the image's working directory, where `serve` looks for it. */
export const CONFIG_PATH = '/config/market-stub.config.json';

const PROFILE_KEYS: readonly (keyof ResponseProfile)[] = ['envelope', 'paging', 'pageSize', 'maxPageSize', 'errors', 'filterStatus'];

/**
 * A market-stub container to start from a test (testcontainers-node 10.x):
 *
 * ```ts
 * const stub = await new MarketStubContainer('market-stub:ci').withSeed(7).withCount(25)
 *   .withClock('2026-01-01').withAdminToken('t0ken').start();
 * await stub.client().setBehaviour({ status: 503 });   // the same MarketStubClient as startMarketStub's
 * await fetch(`${stub.url}/markets`);                  // 503
 * await stub.stop();
 * ```
 *
 * Each `with…` sets the `serve` option of the same name through its `MARKET_STUB_*` variable,
 * checked at once with the option's own rule (a MarketStubError OPTION_INVALID naming the method);
 * fixtures and a config file are copied into the container (no bind mount, so a remote Docker
 * host works too). The port 4010 is mapped to a free host port; `start()` resolves once
 * `GET /healthz` answers 200, and a container that exits first (a bad option or fixture) fails
 * it with the stub's own message from its logs.
 */
export class MarketStubContainer extends GenericContainer {
  private adminToken: string | undefined;

  constructor(image: string = DEFAULT_MARKET_STUB_IMAGE) {
    super(image);
    this.withExposedPorts(MARKET_STUB_PORT)
      .withEnvironment({ MARKET_STUB_PORT: String(MARKET_STUB_PORT), MARKET_STUB_HOST: '0.0.0.0' })
      .withWaitStrategy(Wait.forHttp('/healthz', MARKET_STUB_PORT, { abortOnContainerExit: true }).forStatusCode(200))
      .withStartupTimeout(DEFAULT_STARTUP_TIMEOUT_MS);
  }

  /** Seed of the generated catalog (`--seed`). */
  withSeed(seed: number): this {
    return this.withEnvironment(serveEnvironment({ seed }, 'MarketStubContainer.withSeed'));
  }

  /** Number of generated markets (`--count`). */
  withCount(count: number): this {
    return this.withEnvironment(serveEnvironment({ count }, 'MarketStubContainer.withCount'));
  }

  /** Clock date YYYY-MM-DD, UTC (`--clock`): with the seed, byte-identical markets on any machine. */
  withClock(clock: string): this {
    return this.withEnvironment(serveEnvironment({ clock }, 'MarketStubContainer.withClock'));
  }

  /** The admin token (`--admin-token`): the admin API answers 401 without it; `client()` sends it. */
  withAdminToken(token: string): this {
    this.withEnvironment(serveEnvironment({ adminToken: token }, 'MarketStubContainer.withAdminToken'));
    this.adminToken = token;
    return this;
  }

  /** The response profile (`--envelope`, `--paging`, `--page-size`, `--max-page-size`, `--errors`, `--filter-status`). */
  withProfile(profile: Partial<ResponseProfile>): this {
    const where = 'MarketStubContainer.withProfile';
    if (profile === null || typeof profile !== 'object' || Array.isArray(profile)) throw invalid(where, 'profile', `an object with ${PROFILE_KEYS.join(', ')}`, profile);
    for (const key of Object.keys(profile)) {
      if (!PROFILE_KEYS.includes(key as keyof ResponseProfile)) throw invalid(where, `profile.${key}`, `a profile field (${PROFILE_KEYS.join(', ')})`, key);
    }
    return this.withEnvironment(serveEnvironment(profile as Record<string, ServeOptionValue | undefined>, where, 'profile.'));
  }

  /**
   * Serves the markets in a fixture file or directory of the host (`--fixtures`), copied into the
   * container at /fixtures (readable by the image's user).
   * @throws MarketStubError OPTION_INVALID when the path is neither a file nor a directory.
   */
  withFixtures(hostPath: string): this {
    const source = this.hostEntry('withFixtures', 'hostPath', hostPath);
    if (source.directory) {
      this.withCopyDirectoriesToContainer([{ source: source.path, target: FIXTURES_PATH, mode: 0o755 }]);
      return this.withEnvironment({ MARKET_STUB_FIXTURES: FIXTURES_PATH });
    }
    const target = `${FIXTURES_PATH}/${path.basename(source.path)}`;
    this.withCopyFilesToContainer([{ source: source.path, target, mode: 0o644 }]);
    return this.withEnvironment({ MARKET_STUB_FIXTURES: target });
  }

  /**
   * Copies a config file (market-stub.config.json: any serve option, inline rules) to
   * /config/market-stub.config.json, where the image's `serve` reads it. The `with…` options and
   * the environment still win over it. Relative paths in it are relative to /config.
   */
  withConfigFile(hostPath: string): this {
    const source = this.hostEntry('withConfigFile', 'hostPath', hostPath);
    if (source.directory) throw invalid('MarketStubContainer.withConfigFile', 'hostPath', 'a config file (not a directory)', hostPath);
    return this.withCopyFilesToContainer([{ source: source.path, target: CONFIG_PATH, mode: 0o644 }]);
  }

  /** Starts the container and waits for GET /healthz; the started container has `url` and `client()`. */
  override async start(): Promise<StartedMarketStubContainer> {
    return new StartedMarketStubContainer(await super.start(), this.adminToken);
  }

  private hostEntry(method: string, option: string, hostPath: unknown): { path: string; directory: boolean } {
    const where = `MarketStubContainer.${method}`;
    if (typeof hostPath !== 'string' || hostPath === '') throw invalid(where, option, 'a file or directory path on this machine', hostPath);
    const absolute = path.resolve(hostPath);
    try {
      const stat = statSync(absolute);
      if (stat.isDirectory() || stat.isFile()) return { path: absolute, directory: stat.isDirectory() };
    } catch {
      // reported below
    }
    throw invalid(where, option, 'an existing file or directory on this machine', hostPath);
  }
}

function invalid(where: string, option: string, expected: string, found: unknown): MarketStubError {
  return new MarketStubError({ code: 'OPTION_INVALID', where, option, expected, found });
}

/** A started market-stub container: its URL as reachable from the test, and the remote client. */
export class StartedMarketStubContainer extends AbstractStartedContainer {
  /** `http://HOST:PORT` with the engine's host and the port mapped to 4010. */
  readonly url: string;

  constructor(started: StartedTestContainer, private readonly adminToken: string | undefined) {
    super(started);
    const host = started.getHost();
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${started.getMappedPort(MARKET_STUB_PORT)}`;
  }

  /** The stub's MarketStubClient (connectMarketStub to `url`, with the container's admin token). */
  client(options: Omit<ConnectMarketStubOptions, 'adminToken'> = {}): MarketStubClient {
    return connectMarketStub(this.url, { ...options, ...(this.adminToken === undefined ? {} : { adminToken: this.adminToken }) });
  }
}

export type { ConnectMarketStubOptions, MarketStubClient } from './index.js';
