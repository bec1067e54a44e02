import { priceBins } from './catalog-model.js';
import type { MarketRow } from './console-types.js';
import { s } from './dom.js';

const WIDTH = 600;
const HEIGHT = 56;
const AXIS = 12;

/**
 * The distribution of yes_price as an SVG bar chart (drawn by hand: one `<rect>` per bin, each
 * with a `<title>` tooltip), scaled to the tallest bin, with 0, 0.5 and 1 marked on the axis.
 */
export function priceChart(markets: readonly MarketRow[]): SVGSVGElement {
  const { counts } = priceBins(markets);
  const top = Math.max(1, ...counts);
  const step = WIDTH / counts.length;
  const svg = s('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT + AXIS}`, class: 'chart', role: 'img', 'aria-label': `yes price distribution of ${markets.length} markets` });
  counts.forEach((count, i) => {
    const height = Math.round((count / top) * HEIGHT);
    const from = (i / counts.length).toFixed(2);
    const to = ((i + 1) / counts.length).toFixed(2);
    svg.append(s('rect', { x: (i * step + 1).toFixed(1), y: HEIGHT - height, width: (step - 2).toFixed(1), height: Math.max(height, count > 0 ? 1 : 0), class: 'bar' }, s('title', {}, `yes ${from}–${to}: ${count} market${count === 1 ? '' : 's'}`)));
  });
  svg.append(s('line', { x1: 0, y1: HEIGHT + 0.5, x2: WIDTH, y2: HEIGHT + 0.5, class: 'axis' }));
  for (const [x, label, anchor] of [[0, '0', 'start'], [WIDTH / 2, '0.5', 'middle'], [WIDTH, '1', 'end']] as const) {
    svg.append(s('text', { x, y: HEIGHT + AXIS - 1, 'text-anchor': anchor, class: 'tick' }, label));
  }
  return svg;
}
