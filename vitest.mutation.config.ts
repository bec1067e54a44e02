import { defineConfig } from 'vitest/config';
import { MUTATION_AREAS, selectedArea } from './scripts/mutation-areas.mjs';

// The tests StrykerJS runs against each mutant (`npm run test:mutation`, stryker.config.mjs): only the
// in-process tests of the area MUTATION_AREA names (all areas' without it), see scripts/mutation-areas.mjs.
// No globalSetup: no test listed there needs the shared stub.
const area = selectedArea();
export default defineConfig({
  test: {
    include: area ? area.tests : [...new Set(Object.values(MUTATION_AREAS).flatMap((a) => a.tests))],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
