// Native ESM: no transform, test files are ES modules (package.json "type": "module") and Jest
// runs them with --experimental-vm-modules, so `import 'market-stub'` loads dist/index.js.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  transform: {},
};
