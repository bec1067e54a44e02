// The contract room's fixture sets: the markets a record run spools to disk and writes out as a
// fixture folder, under a lock, swapped in atomically. Imports the HTTP client (ContractRunError);
// other sub-rooms and rooms import these files only from here (.dependency-cruiser.cjs).
export { type FixtureSetOptions, type FixtureSetStaging, type FixtureSetWritten, stageFixtureSet, writeFixtureSet } from './fixture-set.js';
export { type MarketSpool } from './market-spool.js';
