import { deviationsOf, marketMatches, unbalanced, type MarketDeviationTag } from './catalog-model.js';
import type { DeviationState, MarketRow } from './console-types.js';
import { byId, h, replace } from './dom.js';
import { priceChart } from './price-chart.js';
import { text } from './value-text.js';

/** Most catalog rows drawn at once; the search narrows a larger catalog. */
export const MAX_CATALOG_ROWS = 300;

function price(value: unknown): string {
  return typeof value === 'number' ? value.toFixed(2) : text(value);
}

/** What each kind of deviation chip means, as its tooltip. */
const CHIP_TITLES: Record<MarketDeviationTag['kind'], string> = {
  market: 'named for this market: it serves it',
  all: 'every market serves it',
  share: 'the seeded share chose this market: it serves it',
  rate: 'a seeded share of a catalog too large to count market by market: this market may or may not serve it',
};

/** One catalog row; only one row is in the tab order (`focusable`): the arrows move between rows (roving tabindex, WAI-ARIA APG). */
function row(market: MarketRow, tags: readonly MarketDeviationTag[], selected: boolean, focusable: boolean): HTMLTableRowElement {
  const chips = tags.map((t) => h('span', { class: `chip chip-${t.kind}`, title: CHIP_TITLES[t.kind] }, t.label));
  return h('tr', { tabindex: focusable ? 0 : -1, 'data-id': market.market_id, class: selected ? 'selected' : undefined, 'aria-selected': selected ? 'true' : 'false' },
    h('td', { class: 'mono' }, market.market_id),
    h('td', { class: 'title', title: text(market.title) }, ...chips, text(market.title)),
    h('td', { class: market.status === 'active' ? 'status' : 'status warn' }, text(market.status)),
    h('td', { class: 'num' }, price(market.yes_price)),
    h('td', { class: 'num' }, price(market.no_price)),
    h('td', { class: 'mono' }, text(market.resolution_date)));
}

/** The catalog pane: chart, search and table; `onSelect` gets the market a row click or Enter picks. */
export function createCatalogView(onSelect: (market: MarketRow) => void): { render(markets: MarketRow[], deviations: DeviationState): void; selected(): string | undefined } {
  const search = byId('catalog-search', HTMLInputElement);
  const body = byId('catalog-body', HTMLTableSectionElement);
  let markets: MarketRow[] = [];
  let deviations: DeviationState = { catalogue: [], active: [] };
  let selectedId: string | undefined;
  const draw = () => {
    const matching = markets.map((m) => ({ market: m, tags: deviationsOf(m.market_id, deviations) })).filter(({ market, tags }) => marketMatches(market, tags, search.value));
    const shownRows = matching.slice(0, MAX_CATALOG_ROWS);
    const focusId = shownRows.some(({ market }) => market.market_id === selectedId) ? selectedId : shownRows[0]?.market.market_id;
    replace(body, ...shownRows.map(({ market, tags }) => row(market, tags, market.market_id === selectedId, market.market_id === focusId)));
    replace(byId('catalog-count', HTMLElement), `${matching.length === markets.length ? `${markets.length} markets` : `${matching.length} of ${markets.length} markets`}${shownRows.length < matching.length ? ` (first ${shownRows.length} shown: narrow the search)` : ''}`);
  };
  const pick = (target: EventTarget | null) => {
    const tr = target instanceof Element ? target.closest('tr') : null;
    const market = markets.find((m) => m.market_id === tr?.getAttribute('data-id'));
    if (!market) return;
    selectedId = market.market_id;
    for (const other of body.querySelectorAll('tr.selected')) other.classList.remove('selected');
    tr?.classList.add('selected');
    onSelect(market);
  };
  search.addEventListener('input', draw);
  body.addEventListener('click', (event) => pick(event.target));
  body.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      pick(event.target);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const tr = event.target instanceof Element ? event.target.closest('tr') : null;
      const next = event.key === 'ArrowDown' ? tr?.nextElementSibling : tr?.previousElementSibling;
      if (next instanceof HTMLElement) {
        tr?.setAttribute('tabindex', '-1');
        next.setAttribute('tabindex', '0');
        next.focus();
      }
    }
  });
  return {
    render(nextMarkets, nextDeviations) {
      markets = nextMarkets;
      deviations = nextDeviations;
      const off = unbalanced(markets);
      replace(byId('catalog-chart', HTMLElement), priceChart(markets), h('p', { class: 'caption' }, `yes price · ${markets.length} markets${off > 0 ? ` · ${off} with yes + no ≠ 1` : ''}`));
      draw();
    },
    selected: () => selectedId,
  };
}
