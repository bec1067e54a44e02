// docs/ci/compose.yaml, run for real: docker-compose against the engine's Docker-compatible socket
// (podman system service here, set up by .ci/container-test.sh with DOCKER_HOST), the image built
// from docker/Dockerfile, the config file mounted at /config. Podman without systemd runs no
// health checks by itself, so this test runs them (`podman healthcheck run`) while compose waits
// for `service_healthy`, as Docker's daemon would.
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainerEngine, runCommand, type ContainerEngine } from './container-engine.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUN_ID = `${process.pid}${randomBytes(2).toString('hex')}`;
const TAG = `localhost/market-stub-compose-test:${RUN_ID}`;
const PROJECT = `msrecipe${RUN_ID}`;
const SERVICE_IMAGE = 'docker.io/library/node:24-bookworm-slim';

const probe = await createContainerEngine().then((e) => ({ engine: e }), (error: unknown) => ({ reason: `no container engine: ${(error as Error).message}` }));
const engine: ContainerEngine | undefined = 'engine' in probe ? probe.engine : undefined;
if ('reason' in probe) console.log(`[container] compose recipe skipped: ${probe.reason}`);

let dir = '';
let built = false;
let healthLoop: ReturnType<typeof setInterval> | undefined;
/** `docker-compose -f DIR/compose.yaml ARGS` with the recipe's variables (through env(1): the image to use and the project name). */
const compose = (args: readonly string[], timeoutMs = 120_000) =>
  runCommand('env', [`MARKET_STUB_IMAGE=${TAG}`, `SERVICE_IMAGE=${SERVICE_IMAGE}`, `COMPOSE_PROJECT_NAME=${PROJECT}`, 'docker-compose', '-f', path.join(dir, 'compose.yaml'), ...args], timeoutMs);

beforeAll(async () => {
  if (!engine) return;
  const version = await runCommand('docker-compose', ['version', '--short'], 30_000);
  expect(version.code, `docker-compose is needed (Debian: apt-get install --no-install-recommends docker-compose); ${version.stderr}`).toBe(0);
  expect(process.env['DOCKER_HOST'] ?? '', 'DOCKER_HOST must point at the engine\'s Docker-compatible socket (podman system service); .ci/container-test.sh sets it').not.toBe('');
  const build = await engine.run(['build', '-f', 'docker/Dockerfile', '-t', TAG, ROOT], { timeoutMs: 600_000 });
  expect(build.code, build.stderr.slice(-3000)).toBe(0);
  built = true;
  dir = await mkdtemp(path.join(tmpdir(), 'market-stub-compose-'));
  await chmod(dir, 0o755);
  for (const file of ['compose.yaml', 'market-stub.config.json']) {
    await copyFile(path.join(ROOT, 'docs', 'ci', file), path.join(dir, file));
    await chmod(path.join(dir, file), 0o644);
  }
  // As the recipe says: a reports folder the image's user (uid 1000) can write.
  await mkdir(path.join(dir, 'reports'));
  await chmod(path.join(dir, 'reports'), 0o777);
}, 620_000);

afterAll(async () => {
  if (healthLoop) clearInterval(healthLoop);
  if (engine && dir) await compose(['down', '--volumes', '--timeout', '1']);
  if (engine && built) await engine.run(['rmi', '-f', TAG]);
  if (dir) await rm(dir, { recursive: true, force: true });
}, 120_000);

describe('docs/ci/compose.yaml with docker-compose against the engine\'s socket', () => {
  it.skipIf(!engine)('starts the stub from the mounted config file, runs the service under test once healthy, and the contract check writes JUnit', async () => {
    const e = engine as ContainerEngine;
    const up = await compose(['up', '-d', 'market-stub']);
    expect(up.code, up.stderr).toBe(0);
    const stub = (await e.run(['ps', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--format', '{{.Names}}'])).stdout.trim().split('\n')[0] ?? '';
    expect(stub).not.toBe('');
    // What Docker's daemon does on the image's interval: without it, service_healthy never comes.
    healthLoop = setInterval(() => void e.checkHealth(stub), 1_000);

    const tested = await compose(['run', '--rm', 'service-under-test']);
    expect(tested.code, `${tested.stdout}\n${tested.stderr}`).toBe(0);
    // The config file's profile: {"markets": [...]} paged by 10 (docs/ci/market-stub.config.json).
    expect(tested.stdout).toContain('200 10 markets');

    const checked = await compose(['run', '--rm', 'contract-check']);
    expect(checked.code, `${checked.stdout}\n${checked.stderr}`).toBe(0);
    const report = await readFile(path.join(dir, 'reports', 'market-contract.xml'), 'utf8');
    expect(XMLValidator.validate(report)).toBe(true);
    expect(report).toMatch(/<testsuites[^>]* failures="0"/);
    const logs = await e.run(['logs', stub]);
    expect(logs.stdout).toContain('serving generated: 25 markets (seed 7, clock 2026-01-01)');
    console.log(`[container] compose recipe: service-under-test exit ${tested.code} after ${Math.round(tested.ms)} ms, contract-check exit ${checked.code} after ${Math.round(checked.ms)} ms; ${(await runCommand('docker-compose', ['version', '--short'])).stdout.trim()}`);
  }, 300_000);
});
