// The CI recipes in docs/ci are valid against the published schemas of their
// platforms (vendored: test/data/ci-schemas/README.md says from where), wire the JUnit report, the
// markdown summary and the HTML report (docs/reports.md) the check writes to what the platform
// shows and uploads, and their `market-stub check` commands run for real against a stub
// configured like the recipe's service. docs/ci/compose.yaml runs for real with
// podman in the container test (test/container/compose-recipe.test.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { runCliProcess } from '../support/cli-process.js';

const ROOT = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, ROOT), 'utf8');

/** YAML 1.2, strict: duplicate keys and syntax errors fail (as the platforms' parsers do). */
function yamlOf(file: string): Record<string, unknown> {
  const doc = parseDocument(read(file), { uniqueKeys: true, prettyErrors: true });
  expect(doc.errors.map((e) => e.message), file).toEqual([]);
  return doc.toJS() as Record<string, unknown>;
}

function validator(file: string): ValidateFunction {
  // Both are draft-07 with editor keywords (markdownDescription): ajv's default draft, not strict.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(JSON.parse(read(file)) as object);
}

/** The words of a shell command line (double quotes group; $NAME and ${NAME} expand from `env`). */
function words(line: string, env: Record<string, string>): string[] {
  const expand = (text: string) => text.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => env[name] ?? '');
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => expand(m[1] ?? m[2] ?? ''));
}

/**
 * Runs a recipe's shell lines in `cwd` with `env`, as the CI shell would: `mkdir -p DIR`, and
 * `npx market-stub check …` as `node dist/cli.cjs check …`. Any other line is refused (the recipe
 * changed: teach this runner, don't skip it).
 * @returns the check's result.
 */
async function runLines(lines: readonly string[], env: Record<string, string>, cwd: string) {
  let result: Awaited<ReturnType<typeof runCliProcess>> | undefined;
  for (const line of lines) {
    const args = words(line, env);
    if (args[0] === 'mkdir' && args[1] === '-p') mkdirSync(path.join(cwd, args[2] ?? ''), { recursive: true });
    else if (args.slice(0, 3).join(' ') === 'npx market-stub check') result = await runCliProcess(args.slice(2), { env, cwd, timeoutMs: 60_000 });
    else throw new Error(`the recipe runner does not know the line ${JSON.stringify(line)}`);
  }
  if (!result) throw new Error('no check command in the recipe lines');
  return result;
}

function outputOf(command: string): string {
  return /--output (\S+)/.exec(command)?.[1] ?? '';
}

/** The path of the command's `--report FORMAT:PATH` of that format. */
function reportOf(command: string, format: string): string {
  return new RegExp(`--report ${format}:(\\S+)`).exec(command)?.[1] ?? '';
}

/** The markdown summary and HTML report a recipe's check wrote in `cwd`: both there, verdict first, no token. */
function readReviewerReports(command: string, cwd: string): { markdown: string; html: string } {
  const markdown = readFileSync(path.join(cwd, reportOf(command, 'markdown')), 'utf8');
  const html = readFileSync(path.join(cwd, reportOf(command, 'html')), 'utf8');
  expect(markdown.split('\n')[0]).toMatch(/^### ✅ market-stub check: PASS: 0 errors, \d+ warnings? in 25 markets/);
  expect(html).toContain('<h1>PASS</h1>');
  for (const text of [markdown, html]) expect(text).not.toContain(TOKEN);
  return { markdown, html };
}

const TOKEN = 'recipe-token-2b9e';
let stub: MarketStub;
beforeAll(async () => {
  // As the recipes' services are configured (seed 7, 25 markets, clock 2026-01-01).
  stub = await startMarketStub({ seed: 7, count: 25, clock: '2026-01-01' });
});
afterAll(() => stub.close());

type Step = { name?: string; run?: string; uses?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = { services?: Record<string, { image: string; env?: Record<string, string>; ports?: string[]; options?: string }>; env?: Record<string, string>; steps: Step[] };

describe('docs/ci/github-actions.yml', () => {
  const workflow = yamlOf('docs/ci/github-actions.yml');
  const jobs = workflow['jobs'] as Record<string, Job>;

  it('is valid against SchemaStore\'s github-workflow schema, which refuses a broken copy', () => {
    const validate = validator('test/data/ci-schemas/github-workflow.json');
    expect(validate(workflow), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    const broken = structuredClone(workflow) as { jobs: Record<string, Record<string, unknown>> };
    const job = broken.jobs['integration'] as Record<string, unknown>;
    job['runs-onn'] = job['runs-on'];
    delete job['runs-on'];
    expect(validate(broken)).toBe(false);
  });

  it('runs the stub as a service container with a health check, appends the markdown summary to the job summary, and uploads the JUnit and HTML reports the check writes', () => {
    const integration = jobs['integration'];
    const service = integration?.services?.['market-stub'];
    expect(service?.ports).toEqual(['4010:4010']);
    expect(service?.options).toContain('--health-cmd "node /app/docker/healthcheck.mjs"');
    expect(integration?.env?.['MARKET_DATA_URL']).toBe('http://127.0.0.1:4010');
    for (const job of Object.values(jobs)) {
      const check = job.steps.find((s) => s.run?.includes('npx market-stub check'));
      const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
      expect(check?.run).toContain('--format junit');
      const run = check?.run ?? '';
      expect(upload?.with?.['path']).toBe(`${outputOf(run)}\n${reportOf(run, 'html')}\n`);
      expect(upload?.if).toBe('always()');
      const summary = job.steps.find((s) => s.run?.includes('$GITHUB_STEP_SUMMARY'));
      expect(summary?.run?.trim()).toBe(`cat ${reportOf(run, 'markdown')} >> "$GITHUB_STEP_SUMMARY"`);
      expect(summary?.if).toBe('always()');
    }
  });

  it('its check commands run: exit 0 against a stub configured like the service, a valid JUnit file, no token in it', async () => {
    for (const [name, job] of Object.entries(jobs)) {
      const check = job.steps.find((s) => s.run?.includes('npx market-stub check'));
      const cwd = mkdtempSync(path.join(tmpdir(), `market-stub-recipe-${name}-`));
      // The job's URLs point at the stub here; a secret in a step's env gets a stand-in value.
      const env = { MARKET_DATA_URL: stub.url, MARKET_DATA_BASE_URL: stub.url, ...Object.fromEntries(Object.entries(check?.env ?? {}).map(([k, v]) => [k, v.replace(/\$\{\{ secrets\.[A-Z_]+ \}\}/, TOKEN)])) };
      const run = await runLines((check?.run ?? '').trim().split('\n'), env, cwd);
      expect(run.code, `${name}: ${run.stderr}`).toBe(0);
      const report = readFileSync(path.join(cwd, outputOf(check?.run ?? '')), 'utf8');
      expect(XMLValidator.validate(report)).toBe(true);
      expect(report).toContain('<testsuites');
      expect(report).not.toContain(TOKEN);
      readReviewerReports(check?.run ?? '', cwd);
    }
  }, 120_000);
});

describe('.github/workflows/release.yml (the project\'s own release)', () => {
  const workflow = yamlOf('.github/workflows/release.yml');
  const jobs = workflow['jobs'] as Record<string, Job & { if?: string; needs?: string[]; permissions?: Record<string, string> }>;
  const runs = (name: string) => (jobs[name]?.steps ?? []).map((s) => s.run ?? '').join('\n');

  it('is valid against SchemaStore\'s github-workflow schema', () => {
    const validate = validator('test/data/ci-schemas/github-workflow.json');
    expect(validate(workflow), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
  });

  it('builds and checks the npm tarball, the wheel and sdist (from the sdist, on Python 3.11) and the image on every run', () => {
    expect(runs('npm')).toContain('npm publish --dry-run');
    expect(runs('npm')).toContain('npx publint --strict');
    expect(runs('python')).toContain('python -m build --sdist');
    expect(runs('python')).toMatch(/python -m build --wheel .*market_stub-\*\.tar\.gz/);
    expect(runs('python')).toContain('twine check --strict');
    expect(jobs['python']?.steps.find((s) => s.uses?.startsWith('actions/setup-python@'))?.with?.['python-version']).toBe('3.11');
    expect(runs('image')).toContain('docker build -f docker/Dockerfile');
    for (const name of ['npm', 'python', 'image']) expect(jobs[name]?.if, name).toBeUndefined();
  });

  it('publishes only on a v* tag, after every check, with provenance: npm --provenance, PyPI trusted publishing with attestations, the image with BuildKit provenance and SBOM', () => {
    const publish = jobs['publish'];
    expect(publish?.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    expect(publish?.needs).toEqual(['npm', 'python', 'image']);
    expect(publish?.permissions?.['id-token']).toBe('write');
    expect(workflow['permissions']).toEqual({ contents: 'read' });
    expect(runs('publish')).toContain('npm publish --provenance');
    const pypi = publish?.steps.find((s) => s.uses?.startsWith('pypa/gh-action-pypi-publish@'));
    expect(pypi?.with?.['attestations']).toBe(true);
    expect(JSON.stringify(pypi)).not.toContain('password');
    const image = publish?.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'));
    expect(image?.with).toMatchObject({ push: true, provenance: 'mode=max', sbom: true });
    expect(runs('publish')).toContain('gh release create');
  });
});

describe('docs/ci/gitlab-ci.yml', () => {
  const pipeline = yamlOf('docs/ci/gitlab-ci.yml');
  type GitLabJob = { services?: { name: string; alias: string; variables?: Record<string, string> }[]; variables?: Record<string, string>; script: string[]; after_script?: string[]; artifacts: { when: string; expose_as?: string; paths?: string[]; reports: { junit: string } } };
  const jobs = Object.fromEntries(Object.entries(pipeline).filter(([key]) => key !== 'stages')) as Record<string, GitLabJob>;

  it('is valid against GitLab\'s CI schema, which refuses a broken copy', () => {
    const validate = validator('test/data/ci-schemas/gitlab-ci.json');
    expect(validate(pipeline), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    const broken = structuredClone(pipeline) as Record<string, Record<string, unknown>>;
    (broken['market-data-integration'] as Record<string, unknown>)['artifacts'] = { when: 'sometimes' };
    expect(validate(broken)).toBe(false);
  });

  it('runs the stub as a service aliased market-stub, and reports the JUnit file the check writes', () => {
    const service = jobs['market-data-integration']?.services?.[0];
    expect(service?.alias).toBe('market-stub');
    expect(jobs['market-data-integration']?.variables?.['MARKET_DATA_URL']).toBe('http://market-stub:4010');
    for (const job of Object.values(jobs)) {
      const check = job.script.find((line) => line.startsWith('npx market-stub check')) ?? '';
      expect(check).toContain('--format junit');
      expect(job.artifacts.reports.junit).toBe(outputOf(check));
      expect(job.artifacts.when).toBe('always');
      // The HTML report linked from the merge request; the markdown summary at the end of the log, even on failure.
      expect(job.artifacts.paths).toEqual([reportOf(check, 'html')]);
      expect(job.artifacts.expose_as).toMatch(/contract report$/);
      expect(job.after_script).toEqual([`cat ${reportOf(check, 'markdown')}`]);
    }
  });

  it('its check commands run: exit 0 against a stub configured like the service, a valid JUnit file', async () => {
    for (const [name, job] of Object.entries(jobs)) {
      const check = job.script.find((line) => line.startsWith('npx market-stub check')) ?? '';
      const header = job.script.find((line) => line.startsWith('export MARKET_STUB_HEADER='));
      const cwd = mkdtempSync(path.join(tmpdir(), `market-stub-recipe-${name}-`));
      const env: Record<string, string> = { MARKET_DATA_URL: stub.url, MARKET_DATA_BASE_URL: stub.url, MARKET_DATA_TOKEN: TOKEN };
      if (header) env['MARKET_STUB_HEADER'] = words(header.replace(/^export MARKET_STUB_HEADER=/, ''), env).join(' ');
      // The script after npm ci / npm test (your own project's commands) and the export above.
      const lines = job.script.filter((line) => !line.startsWith('npm ') && line !== header);
      const run = await runLines(lines, env, cwd);
      expect(run.code, `${name}: ${run.stderr}`).toBe(0);
      const report = readFileSync(path.join(cwd, outputOf(check)), 'utf8');
      expect(XMLValidator.validate(report)).toBe(true);
      expect(report).not.toContain(TOKEN);
      readReviewerReports(check, cwd);
    }
  }, 120_000);
});

describe('docs/ci/compose.yaml (lint; run for real in the container test)', () => {
  const compose = yamlOf('docs/ci/compose.yaml') as { services: Record<string, { volumes?: string[]; depends_on?: Record<string, { condition: string }>; command?: string[] }> };

  it('mounts docs/ci/market-stub.config.json at /config and waits for the stub to be healthy', () => {
    expect(compose.services['market-stub']?.volumes).toEqual(['./market-stub.config.json:/config/market-stub.config.json:ro']);
    for (const name of ['service-under-test', 'contract-check']) expect(compose.services[name]?.depends_on).toEqual({ 'market-stub': { condition: 'service_healthy' } });
    expect(compose.services['contract-check']?.command).toEqual(['check', '--base-url', 'http://market-stub:4010', '--format', 'junit', '--output', '/reports/market-contract.xml']);
  });

  it('is the one compose recipe: no other compose file, and the docs name only this one', () => {
    expect(existsSync(new URL('docker/compose.yaml', ROOT))).toBe(false);
    for (const doc of ['README.md', 'docker/README.md']) expect(read(doc).match(/[\w./-]*compose\.ya?ml/g)?.filter((f) => !f.endsWith('docs/ci/compose.yaml')) ?? [], doc).toEqual([]);
  });
});
