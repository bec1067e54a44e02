import { mkdir, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A fixture set on disk that a pattern rewrites; `location` is what `--fixtures` points at. */
export interface WatchedSet {
  root: string;
  location: string;
}

const market = (title: string) => ({ market_id: 'w-1', title, status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2027-01-01' });
const text = (title: string) => JSON.stringify([market(title)]);

/** How editors and deploy scripts replace fixtures; each writes a set whose market w-1 has `title`. */
export const WATCH_PATTERNS: Record<string, { setUp(root: string): Promise<WatchedSet>; write(set: WatchedSet, title: string, round: number): Promise<void> }> = {
  'write in place': {
    async setUp(root) { await writeFile(path.join(root, 'markets.json'), text('v0')); return { root, location: path.join(root, 'markets.json') }; },
    async write(set, title) { await writeFile(set.location, text(title)); },
  },
  'rename over (atomic save)': {
    async setUp(root) { await writeFile(path.join(root, 'markets.json'), text('v0')); return { root, location: path.join(root, 'markets.json') }; },
    async write(set, title, round) { const tmp = path.join(set.root, `.markets.json.${round}.tmp`); await writeFile(tmp, text(title)); await rename(tmp, set.location); },
  },
  'vim-style backup save': {
    async setUp(root) { await mkdir(path.join(root, 'set')); await writeFile(path.join(root, 'set', 'a.json'), text('v0')); return { root, location: path.join(root, 'set') }; },
    async write(set, title) { const file = path.join(set.location, 'a.json'); await rename(file, `${file}~`); await writeFile(file, text(title)); await unlink(`${file}~`); },
  },
  'delete and recreate the directory': {
    async setUp(root) { await mkdir(path.join(root, 'set')); await writeFile(path.join(root, 'set', 'a.json'), text('v0')); return { root, location: path.join(root, 'set') }; },
    async write(set, title) { await rm(set.location, { recursive: true }); await mkdir(set.location); await writeFile(path.join(set.location, 'a.json'), text(title)); },
  },
  'directory renamed over': {
    async setUp(root) { await mkdir(path.join(root, 'set')); await writeFile(path.join(root, 'set', 'a.json'), text('v0')); return { root, location: path.join(root, 'set') }; },
    async write(set, title, round) { const next = path.join(set.root, `next-${round}`); await mkdir(next); await writeFile(path.join(next, 'a.json'), text(title)); await rm(set.location, { recursive: true }); await rename(next, set.location); },
  },
  'symlink swap': {
    async setUp(root) { await mkdir(path.join(root, 'r0')); await writeFile(path.join(root, 'r0', 'a.json'), text('v0')); await symlink(path.join(root, 'r0'), path.join(root, 'current')); return { root, location: path.join(root, 'current') }; },
    async write(set, title, round) {
      const dir = path.join(set.root, `r${round}`);
      await mkdir(dir);
      await writeFile(path.join(dir, 'a.json'), text(title));
      const link = path.join(set.root, `current.${round}`);
      await symlink(dir, link);
      await rename(link, set.location);
    },
  },
};

/** Polls `url` until its JSON `title` is `title` or `timeoutMs` passes; returns whether it got there. */
export async function waitForTitle(url: string, title: string, timeoutMs = 5_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.status === 200 && ((await res.json()) as { title?: string }).title === title) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}
