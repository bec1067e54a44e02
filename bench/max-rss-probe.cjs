// Preloaded (`node -r bench/max-rss-probe.cjs …`) into a process whose peak memory the checker
// benchmark measures: at exit it writes `max-rss-kb N` (process.resourceUsage().maxRSS, the
// kernel's exact peak resident set size) to stderr (a pipe: written synchronously on Linux).
'use strict';
process.on('exit', () => {
  process.stderr.write(`\nmax-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
