import { htmlText } from './report-display.js';
import type { Histogram, ReportDistributions, ResponseTimes } from '../checks/index.js';

/** One bar of a chart: its label under the axis, its value, and whether it is the expected one. */
interface Bar {
  label: string;
  value: number;
  highlight?: boolean;
}

const WIDTH = 420;
const HEIGHT = 200;
const PAD = { top: 22, right: 8, bottom: 34, left: 8 };

/**
 * A bar chart as inline SVG (no script, no external resource: it draws under the report's
 * `default-src 'none'` policy). Each bar carries its count above it and a `<title>` tooltip;
 * the chart has `role="img"` and an `aria-label` for screen readers. Text is escaped.
 */
export function barChart(caption: string, bars: readonly Bar[]): string {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.max(4, slot * 0.72);
  const parts = bars.map((bar, i) => {
    const h = bar.value === 0 ? 0 : Math.max(2, (bar.value / max) * plotHeight);
    const x = PAD.left + i * slot + (slot - barWidth) / 2;
    const y = PAD.top + plotHeight - h;
    const centre = (x + barWidth / 2).toFixed(1);
    return `<g><title>${htmlText(`${bar.label}: ${bar.value}`)}</title>`
      + `<rect class="bar${bar.highlight ? ' expected' : ''}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}" rx="2"/>`
      + `<text class="count" x="${centre}" y="${(y - 5).toFixed(1)}">${bar.value}</text>`
      + `<text class="label" x="${centre}" y="${HEIGHT - PAD.bottom + 15}">${htmlText(bar.label)}</text></g>`;
  });
  const axis = `<line class="axis" x1="${PAD.left}" y1="${PAD.top + plotHeight}" x2="${WIDTH - PAD.right}" y2="${PAD.top + plotHeight}"/>`;
  return `<svg class="chart" role="img" aria-label="${htmlText(caption)}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" xmlns="http://www.w3.org/2000/svg">${axis}${parts.join('')}</svg>`;
}

/** The bars of a histogram, labelled by `label(lower, upper)`; the below/above bins only when they hold values. */
function histogramBars(histogram: Histogram, label: (lower: number, upper: number) => string, below: string, above: string, expected?: (lower: number, upper: number) => boolean): Bar[] {
  const bars: Bar[] = histogram.counts.map((value, i) => {
    const lower = histogram.edges[i] as number;
    const upper = histogram.edges[i + 1] as number;
    return { label: label(lower, upper), value, highlight: expected?.(lower, upper) ?? false };
  });
  if (histogram.below > 0) bars.unshift({ label: below, value: histogram.below });
  if (histogram.above > 0) bars.push({ label: above, value: histogram.above });
  return bars;
}

const total = (h: Histogram) => h.counts.reduce((n, c) => n + c, 0) + h.below + h.above;

/** A figure: a chart with its heading and a one-line note, or a sentence saying there was nothing to draw. */
function figure(heading: string, note: string, chart: string | undefined): string {
  const body = chart ?? '<p class="empty">Nothing to draw: no value was seen.</p>';
  return `<figure><figcaption><strong>${htmlText(heading)}</strong><span>${htmlText(note)}</span></figcaption>${body}</figure>`;
}

/** yes_price of the listed markets, in ten bins of 0.1. */
function priceFigure(d: ReportDistributions): string {
  const n = total(d.yesPrice);
  const bars = histogramBars(d.yesPrice, (lo) => lo.toFixed(1), '< 0', '> 1');
  return figure('Price distribution', `yes_price of ${n} listed market${n === 1 ? '' : 's'}, bins of 0.1`, n === 0 ? undefined : barChart('Price distribution: yes_price of the listed markets', bars));
}

/** yes_price + no_price of the listed markets, one cent a bin, the bin of 1.00 highlighted. */
function sumFigure(d: ReportDistributions): string {
  const n = total(d.priceSum);
  const off = n - (d.priceSum.counts[5] ?? 0);
  const bars = histogramBars(d.priceSum, (lo, hi) => ((lo + hi) / 2).toFixed(2), '<0.95', '>1.05', (lo, hi) => lo < 1 && hi > 1);
  return figure('yes + no', `${n} market${n === 1 ? '' : 's'}; ${off} not within ±0.005 of 1.00`, n === 0 ? undefined : barChart('yes_price + no_price of the listed markets', bars));
}

/** One endpoint's answer times, in ms bins, with count, min, mean and max. */
function timeFigure(endpoint: string, times: ResponseTimes): string {
  const mean = times.count === 0 ? 0 : times.totalMs / times.count;
  const note = `${times.count} answer${times.count === 1 ? '' : 's'}: min ${times.minMs} ms, mean ${mean.toFixed(1)} ms, max ${times.maxMs} ms`;
  const bars = histogramBars(times.histogram, (_lo, hi) => `≤${hi >= 1000 ? `${hi / 1000}s` : hi}`, '< 0', '> 10s').filter((b, i, all) => b.value > 0 || all.slice(i).some((later) => later.value > 0));
  return figure(`Response times, ${endpoint} (ms)`, note, times.count === 0 ? undefined : barChart(`Response times of ${endpoint}, ms`, bars));
}

/** The charts section: price distribution, yes + no, and response times per endpoint. */
export function chartsSection(distributions: ReportDistributions | undefined): string {
  if (!distributions) return '<section id="charts"><h2>Charts</h2><p class="empty">This report carries no distributions.</p></section>';
  const times = Object.entries(distributions.responseTimes).map(([endpoint, t]) => timeFigure(endpoint, t));
  if (times.length === 0) times.push(figure('Response times', 'no answer was timed', undefined));
  return `<section id="charts"><h2>Charts</h2><div class="charts">${priceFigure(distributions)}${sumFigure(distributions)}${times.join('')}</div></section>`;
}
