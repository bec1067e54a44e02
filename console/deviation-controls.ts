import { adminCall } from './admin-client.js';
import { byId, h, jsonText, replace } from './dom.js';
import type { DeviationSetting, DeviationState, MarketRow } from './console-types.js';
import { deviationsOf } from './catalog-model.js';

/** Runs one admin action with its label (the console shows the outcome and reloads). */
export type Act = (label: string, job: () => Promise<unknown>) => Promise<void>;

function settingLabel(setting: DeviationSetting): string {
  if (setting.marketIds) return `${setting.name} · ${setting.marketIds.length === 1 ? setting.marketIds[0] : `${setting.marketIds.length} markets`}`;
  if (setting.rate !== undefined && setting.rate !== 1) return `${setting.name} · rate ${setting.rate}`;
  return `${setting.name} · all`;
}

/** The setting to add from the form, or a reason it cannot be built. */
function formSetting(name: string, scope: string, rate: string, marketId: string): DeviationSetting | string {
  if (name === '') return 'pick a deviation';
  if (scope === 'rate') {
    const value = Number(rate);
    if (rate.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) return `rate: expected a number from 0 to 1, found "${rate}"`;
    return { name, rate: value };
  }
  if (scope === 'market') return marketId.trim() === '' ? 'market: give a market_id (or select a market in the catalog)' : { name, marketIds: [marketId.trim()] };
  return { name };
}

/**
 * The deviation controls: the form (every market, a rate, one market), the list in force (each
 * removable) and the selected market's own deviations as checkboxes. Changes go through
 * `PUT /__stub/deviations` (the whole list in force) and `PUT /__stub/markets/{id}/deviations`.
 */
export function createDeviationControls(act: Act): { render(state: DeviationState, market: MarketRow | undefined): void } {
  let state: DeviationState = { catalogue: [], active: [] };
  const form = byId('deviation-form', HTMLFormElement);
  const put = (active: DeviationSetting[], label: string) => act(label, () => adminCall('PUT', '/deviations', active));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const setting = formSetting(String(data.get('name') ?? ''), String(data.get('scope') ?? 'all'), String(data.get('rate') ?? ''), String(data.get('market') ?? ''));
    if (typeof setting === 'string') {
      void act('add a deviation', () => Promise.reject(new Error(setting)));
      return;
    }
    if (setting.marketIds) {
      const id = setting.marketIds[0] ?? '';
      const names = [...new Set([...deviationsOf(id, state).filter((t) => t.kind === 'market').map((t) => t.name), setting.name])];
      void act(`deviations of ${id}`, () => adminCall('PUT', `/markets/${encodeURIComponent(id)}/deviations`, names));
    } else void put([...state.active.filter((s) => s.name !== setting.name || s.marketIds), setting], `deviation ${settingLabel(setting)}`);
  });
  const marketInput = byId('deviation-market', HTMLInputElement);
  marketInput.addEventListener('input', () => (marketInput.dataset['auto'] = 'false'));
  byId('deviation-clear', HTMLButtonElement).addEventListener('click', () => void put([], 'clear every deviation'));
  return {
    render(next, market) {
      state = next;
      const select = byId('deviation-name', HTMLSelectElement);
      if (select.options.length !== state.catalogue.length) {
        replace(select, ...state.catalogue.map((d) => h('option', { value: d.name, title: d.describe }, `${d.name} (${d.scope === 'list' ? 'list' : d.class})`)));
      }
      replace(byId('deviation-active', HTMLElement), ...(state.active.length === 0 ? [h('li', { class: 'muted' }, 'none: the stub serves the contract')] : state.active.map((setting, i) =>
        h('li', {}, h('span', {}, settingLabel(setting)), removeButton(`remove ${setting.name}`, () => void put(state.active.filter((_, j) => j !== i), `remove ${settingLabel(setting)}`))))));
      renderMarketDeviations(state, market, act);
    },
  };
}

/** A small ✕ button with an accessible name. */
export function removeButton(label: string, onClick: () => void): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'remove', 'aria-label': label, title: label }, '✕');
  button.addEventListener('click', onClick);
  return button;
}

/** The selected market: its stored JSON and a checkbox per market deviation (checked: named for it). */
function renderMarketDeviations(state: DeviationState, market: MarketRow | undefined, act: Act): void {
  const panel = byId('market-panel', HTMLElement);
  panel.hidden = market === undefined;
  if (!market) return;
  const id = market.market_id;
  replace(byId('market-id', HTMLElement), id);
  replace(byId('market-json', HTMLElement), jsonText(market));
  const own = new Set(deviationsOf(id, state).filter((t) => t.kind === 'market').map((t) => t.name));
  // Those the market serves first: they are what a tester looks for.
  const choices = state.catalogue.filter((d) => d.scope === 'market').sort((a, b) => Number(own.has(b.name)) - Number(own.has(a.name)));
  const boxes = choices.map((d) => {
    const box = h('input', { type: 'checkbox', name: d.name, checked: own.has(d.name), 'data-deviation': d.name });
    box.addEventListener('change', () => {
      const names = state.catalogue.filter((c) => (c.name === d.name ? box.checked : own.has(c.name))).map((c) => c.name);
      void act(`deviations of ${id} → ${names.join(', ') || 'none'}`, () => adminCall('PUT', `/markets/${encodeURIComponent(id)}/deviations`, names));
    });
    return h('label', { title: d.describe, class: own.has(d.name) ? 'on' : undefined }, box, d.name);
  });
  replace(byId('market-deviations', HTMLElement), ...boxes);
  const marketInput = byId('deviation-market', HTMLInputElement);
  if (marketInput.value === '' || marketInput.dataset['auto'] === 'true') {
    marketInput.value = id;
    marketInput.dataset['auto'] = 'true';
  }
}
