// The areas of mutation testing (docs/mutation-testing.md): what each mutates and the in-process tests
// that reach it. Read by stryker.config.mjs (`mutate`) and vitest.mutation.config.ts (`include`);
// MUTATION_AREA=<name> picks one area, no MUTATION_AREA means all of them.
// Only fast tests: each mutant runs the tests that reached it, so a test file that starts stubs, waits
// for delays or spawns dist/cli.cjs (which runs the built bundle, not the mutant) costs seconds per
// mutant. The slower suites (test/runtime, test/deviation/deviation-proof.test.ts, check-deviant…)
// still guard these areas in `npm test`; they are not counted here.

/** @type {Record<string, { mutate: string[]; tests: string[] }>} */
export const MUTATION_AREAS = {
  contract: {
    // market-checks.ts and the two modules split out of it (body descriptions, list-item identity).
    mutate: ['src/contract/checks/market-checks.ts', 'src/contract/checks/body-description.ts', 'src/contract/checks/market-identity.ts'],
    tests: ['src/contract/**/*.test.ts', 'test/contract/market-checks-*.test.ts', 'test/contract/check-library.test.ts'],
  },
  behaviour: {
    mutate: ['src/behaviour/behaviour.ts'],
    // ruleProblems is the one check of rules for the library's `rules` and serve's `--behaviours`
    // (test/library/rule-problems.test.ts); the serve config's behaviour flags reach checkBehaviour.
    tests: ['src/behaviour/**/*.test.ts', 'test/library/rule-problems.test.ts', 'src/config.test.ts', 'src/options/*.test.ts'],
  },
  deviation: {
    mutate: ['src/deviation/*.ts', '!src/deviation/*.test.ts'],
    // deviation-rules-conflicts.test.ts asks through createApp and the admin API (in process).
    tests: ['src/deviation/**/*.test.ts', 'test/deviation/deviation-catalogue.test.ts', 'test/deviation/deviation-rules-*.test.ts', 'test/docs/generated-sections.test.ts'],
  },
  'request-path': {
    // The core's stages route → decide → render (src/runtime/answer-request.ts: routeOf,
    // matchMarketRoute, readPrefer, renderMarketRoute, injectedError) and the replies they build.
    mutate: ['src/runtime/answer-request.ts', 'src/runtime/market-list.ts', 'src/runtime/error-reply.ts', 'src/runtime/deviated-reply.ts'],
    // test/http/app.test.ts and fast-path.test.ts build a catalog or start a server per run: over two
    // hours for this area on two shared cores, so they are left to `npm test`.
    tests: ['src/http/**/*.test.ts', 'src/runtime/**/*.test.ts', 'test/http/request-path-*.test.ts', 'test/runtime/browser-bundle.test.ts'],
  },
};

/** The area MUTATION_AREA names, or undefined for all. @throws Error naming the known areas for an unknown name. */
export function selectedArea() {
  const name = process.env.MUTATION_AREA;
  if (name === undefined || name === '') return undefined;
  const area = MUTATION_AREAS[name];
  if (!area) throw new Error(`MUTATION_AREA=${name}: expected one of ${Object.keys(MUTATION_AREAS).join(', ')}`);
  return area;
}
