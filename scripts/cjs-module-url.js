// Injected into the CommonJS library bundle (scripts/build.mjs): esbuild replaces every
// `import.meta.url` with this binding, the file URL of dist/index.cjs, so `createRequire(…)` and
// `new URL(…, import.meta.url)` resolve exactly as they do from dist/index.js.
/* global require, __filename */
export const __marketStubModuleUrl = require('node:url').pathToFileURL(__filename).href;
