// Preloaded (`node -r bench/max-rss-probe.cjs …`) into a process whose peak memory the checker
// benchmark measures: at exit it writes `max-rss-kb N` (process.resourceUsage().maxRSS, the
// kernel's exact peak resident set size) to stderr.
'use strict';
process.on('exit', () => {
  require('node:fs').writeSync(2, `\nmax-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
