import { createRequire } from 'node:module';
import type Express from 'express';

let loaded: typeof Express | undefined;

/**
 * Requires express (CommonJS) on first use. Importing market-stub, and serving the two market
 * routes, never loads it: the stub runtime answers those before any Express app exists.
 */
export function loadExpress(): typeof Express {
  loaded ??= createRequire(import.meta.url)('express') as typeof Express;
  return loaded;
}
