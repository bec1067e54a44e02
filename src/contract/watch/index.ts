// The contract room's watch: rounds of checkDeployment compared with each other (findings over
// time), their state carried between runs, the round as text, JSON lines and OpenMetrics. The top
// sub-room: it imports crawl/ and those below; nothing in the contract room imports it. Other
// rooms import these files only from here (.dependency-cruiser.cjs).
export { deploymentIdentity, watchDeployment, type WatchOptions, type WatchRound } from './watch-deployment.js';
export { type WatchEvidence, type WatchExample, type WatchFinding } from './watch-finding.js';
export { formatRoundJsonl, formatRoundText, formatSummaryJsonl, formatSummaryText } from './watch-formats.js';
export { loadWatchState, saveWatchState, WATCH_STATE_FORMAT, WATCH_STATE_VERSION } from './watch-state.js';
export { type TimelineRound, type WatchSummary, WatchSummaryBuilder } from './watch-summary.js';
export { formatWatchHtml, WATCH_HTML_CSP } from './format-watch-html.js';
export { WatchMetrics } from './watch-metrics.js';
