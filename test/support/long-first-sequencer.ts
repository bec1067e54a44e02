import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that take longest, longest first (the ranking in docs/development.md, "How long
 * the suite takes"). They are small files, and without timings from an earlier run (a fresh clone
 * has none) vitest starts the largest files first, so these would start last and run alone at the
 * end. A path here that no longer exists is ignored.
 */
const LONG_FILES: readonly string[] = [
  'test/docs/examples.test.ts',
  'test/docs/api-reference.test.ts',
  'test/contract/check-cli.test.ts',
  'test/runtime/hot-reload.test.ts',
  'test/runtime/admin-journal.test.ts',
  'test/msw/same-bytes.test.ts',
  'test/cli/generate-stream.test.ts',
];

/**
 * vitest's own order (failed first, then longest by the timings of an earlier run, or largest
 * file), with the files of LONG_FILES moved to the front in that order, so that with several
 * workers the long files overlap the short ones instead of ending the run.
 */
export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const at = LONG_FILES.findIndex((file) => spec.moduleId.replaceAll('\\', '/').endsWith(`/${file}`));
      return at === -1 ? LONG_FILES.length : at;
    };
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}
