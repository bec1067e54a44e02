// The contract room's crawl: checkDeployment and crawlDeployment walk a deployment's list page by
// page, then each market, refusals and outages included, through the HTTP client, paging, checks,
// reports and fixture sets (only the watch, watch/, imports it: a watch's round is a crawl). Other
// rooms import these files only from here (.dependency-cruiser.cjs).
export { checkDeployment, crawlDeployment, type CrawlOptions, type CrawlProgress, type CrawlResult, type InvalidResponse } from './crawl-deployment.js';
export { type AnswerFacts, type CrawlObserver } from './crawl-observer.js';
