import { todayUtc } from '../../floor/market-rules.js';
import { LIST_ENDPOINT } from '../checks/index.js';
import type { CrawlState } from './crawl-state.js';

/**
 * The calendar date (UTC, `YYYY-MM-DD`) of an HTTP `Date` header (RFC 9110 §6.6.1: IMF-fixdate,
 * or the obsolete RFC 850 and asctime forms, which Date.parse reads too); undefined when absent
 * or not a date.
 */
export function httpDateDay(header: string | undefined): string | undefined {
  if (header === undefined || header.length > 64) return undefined;
  const ms = Date.parse(header);
  return Number.isFinite(ms) ? todayUtc(new Date(ms)) : undefined;
}

/**
 * Unless the caller gave `today`, judges "past" (past-resolution-date) against the deployment's
 * own date, its first list answer's `Date` header, when that differs from this machine's: a stub
 * with a fixed clock, or a deployment in another time zone's day, is checked as of its own day.
 * Reports the date adopted as information `deployment-date`.
 */
export function adoptDeploymentDate(state: CrawlState, dateHeader: string | undefined): void {
  if (state.settings.todayGiven) return;
  const day = httpDateDay(dateHeader);
  if (day === undefined || day === state.ctx.today) return;
  const local = state.ctx.today;
  state.ctx.today = day;
  state.info({
    code: 'deployment-date', endpoint: LIST_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: `Date: ${dateHeader ?? ''}` },
    message: `dates are judged as of ${day}, the deployment's Date header (this machine's date is ${local}; --today sets another)`,
  });
}
