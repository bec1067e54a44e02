import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';

/** One lint finding, as both linters name it: `redocly no-empty-servers (error) #/servers: …`. */
export interface LintProblem {
  linter: 'redocly' | 'spectral';
  rule: string;
  severity: 'error' | 'warn' | 'info' | 'hint';
  where: string;
  message: string;
}

const SPECTRAL_SEVERITY = ['error', 'warn', 'info', 'hint'] as const;

/** Redocly's `recommended` ruleset over `doc` (what `redocly lint --extends recommended` runs). */
export async function redoclyProblems(doc: unknown): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(doc, null, 2), absoluteRef: 'openapi.json', config });
  return problems.map((p) => ({
    linter: 'redocly',
    rule: p.ruleId,
    severity: p.severity === 'error' ? 'error' : p.severity === 'warn' ? 'warn' : 'info',
    where: p.location.map((l) => l.pointer ?? '').join(' '),
    message: p.message,
  }));
}

/** Spectral's `spectral:oas` ruleset over `doc` (what `spectral lint` runs with `extends: spectral:oas`). */
export async function spectralProblems(doc: unknown): Promise<LintProblem[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas, 'recommended']] } as never);
  const results = await spectral.run(JSON.stringify(doc, null, 2));
  return results.map((r) => ({
    linter: 'spectral',
    rule: String(r.code),
    severity: SPECTRAL_SEVERITY[r.severity] ?? 'hint',
    where: `#/${r.path.map(String).join('/')}`,
    message: r.message,
  }));
}
