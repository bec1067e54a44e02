// Injected into the CommonJS library bundle (scripts/build.mjs): esbuild replaces every
// `import.meta.url` there with this binding, the file URL of dist/index.cjs, so the lazy
// `createRequire(import.meta.url)` calls resolve exactly as they do from dist/index.js.
/* global __filename -- defined in the CommonJS module this is bundled into */
import { pathToFileURL } from 'node:url';

export const __marketStubModuleUrl = pathToFileURL(__filename).href;
