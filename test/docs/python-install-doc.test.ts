// docs/python.md's Install section holds together with what installs the package for real: its
// commands cannot run here (each builds in a fresh venv, minutes long), so this test ties them to
// scripts/test-python-source-install.sh, which runs each of them from a clean copy of the tree, and
// to python/hatch_build.py, whose messages the section quotes. A newcomer on Debian's python3 who
// types the section top to bottom needs a virtual environment before the first `pip install`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksOf, ROOT } from './support/doc-blocks.js';

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const doc = read('docs/python.md');
const install = doc.slice(doc.indexOf('## Install'), doc.indexOf('\n## ', doc.indexOf('## Install') + 1));
const script = read('scripts/test-python-source-install.sh');
const hook = read('python/hatch_build.py');
/** The lines of the Install section's shell block, comments and blank lines left out. */
const commands = blocksOf('docs/python.md')
  .filter((b) => b.lang === 'bash' && install.includes(b.body))
  .flatMap((b) => b.body.split('\n'))
  .map((line) => line.replace(/\s#\s.*$/, '').trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

describe('docs/python.md, Install', () => {
  it('makes and activates a virtual environment before its first pip install (PEP 668: Debian\'s python3 refuses pip outside one)', () => {
    const venv = commands.findIndex((line) => /python3 -m venv (\S+) && \. \1\/bin\/activate/.test(line));
    const pip = commands.findIndex((line) => line.startsWith('pip install'));
    expect(pip).toBeGreaterThan(0);
    expect(venv).toBeGreaterThanOrEqual(0);
    expect(venv).toBeLessThan(pip);
    expect(read('.gitignore').split('\n')).toContain('/.venv/');
  });

  it('shows only the installs scripts/test-python-source-install.sh performs from a clean copy (a clone\'s ./python, a git URL\'s subdirectory) or a release\'s wheel', () => {
    const forms = commands.filter((line) => line.startsWith('pip install')).map((line) => line.replace(/^pip install\s+/, ''));
    expect(forms).toHaveLength(3);
    for (const form of forms) {
      if (form === './python') expect(script).toMatch(/^installs \S+ "\$WORK\/src\/python"$/m);
      else if (form.startsWith('"git+')) {
        expect(form).toMatch(/#subdirectory=python"$/);
        expect(script).toMatch(/^installs \S+ "git\+file:\/\/\$WORK\/clone#subdirectory=python"$/m);
      } else expect(form).toMatch(/\/releases\/download\/v[\d.]+\/market_stub-[\d.]+-py3-none-any\.whl$/);
    }
  });

  it('quotes the build\'s refusals as python/hatch_build.py words them and as the script checks pip prints them', () => {
    const quoted = [...install.matchAll(/`(cannot build the Python package: [^`…]+|no usable bundled CLI: [^`…]+)/g)].map((m) => (m[1] as string).replace(/\s+/g, " ").trim());
    expect(quoted).toHaveLength(2);
    for (const message of quoted) expect(script).toContain(message);
    expect(hook).toContain('cannot build the Python package: {reason}');
    expect(hook).toContain('this source tree has no usable bundled CLI: {why}');
    expect(hook).toContain('f"src/market_stub/_bundled/ lacks {');
  });
});
