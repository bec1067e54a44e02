// ts-jest's default preset: TypeScript compiled to CommonJS, so `import ... from 'market-stub'`
// becomes require('market-stub') and loads dist/index.cjs (no transformIgnorePatterns needed).
/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
};
