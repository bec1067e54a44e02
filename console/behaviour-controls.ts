import { adminCall } from './admin-client.js';
import { byId, h, replace } from './dom.js';
import { text } from './value-text.js';
import type { Behaviour, BehaviourState } from './console-types.js';
import { removeButton, type Act } from './deviation-controls.js';

/** A whole number from a form field within [min, max], undefined when empty. @throws Error naming the field. */
function whole(data: FormData, field: string, min: number, max: number): number | undefined {
  const raw = String(data.get(field) ?? '').trim();
  if (raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${field}: expected a whole number from ${min} to ${max}, found "${raw}"`);
  return value;
}

/**
 * The rule the form describes, as `POST /__stub/behaviours/rules` takes it: `{match, behaviour, times?}`
 * (README "Behaviours"). The stub checks it again and answers what is wrong.
 * @throws Error naming the field when a number is not one, or when the rule would do nothing.
 */
export function ruleFromForm(data: FormData): { match: Record<string, string>; behaviour: Behaviour; times?: number } {
  const match: Record<string, string> = {};
  const route = String(data.get('route') ?? '');
  const marketId = String(data.get('marketId') ?? '').trim();
  if (route !== '') match['route'] = route;
  if (marketId !== '') match['marketId'] = marketId;
  const behaviour: Behaviour = {};
  const delayMs = whole(data, 'delayMs', 0, 600_000);
  const status = whole(data, 'status', 200, 599);
  const fault = String(data.get('fault') ?? '');
  if (delayMs !== undefined) behaviour['delayMs'] = delayMs;
  if (status !== undefined) behaviour['status'] = status;
  if (fault !== '') behaviour['fault'] = fault;
  if (Object.keys(behaviour).length === 0) throw new Error('give a delay, a status or a fault: a rule without one changes nothing');
  const times = whole(data, 'times', 1, 1_000_000);
  return { match, behaviour, ...(times === undefined ? {} : { times }) };
}

function describe(value: Record<string, unknown>): string {
  const parts = Object.entries(value).map(([k, v]) => `${k}=${text(v)}`);
  return parts.length === 0 ? 'every market request' : parts.join(' ');
}

/** Rules (add, list with times left, remove), clearing behaviours, tick and reset (reset asks twice). */
export function createBehaviourControls(act: Act): { render(state: BehaviourState): void; tick(): void } {
  const form = byId('rule-form', HTMLFormElement);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void act('add a rule', () => adminCall('POST', '/behaviours/rules', ruleFromForm(new FormData(form))));
  });
  byId('rule-clear', HTMLButtonElement).addEventListener('click', () => void act('start-up behaviours again', () => adminCall('DELETE', '/behaviours')));
  const tickForm = byId('tick-form', HTMLFormElement);
  const tick = () => {
    const data = new FormData(tickForm);
    void act('tick', async () => {
      const n = whole(data, 'n', 1, 10_000) ?? 1;
      const answer = (await adminCall('POST', '/tick', { n })) as { tick: number };
      replace(byId('tick-now', HTMLElement), `tick ${answer.tick}`);
    });
  };
  tickForm.addEventListener('submit', (event) => {
    event.preventDefault();
    tick();
  });
  const reset = byId('reset-button', HTMLButtonElement);
  let armed: ReturnType<typeof setTimeout> | undefined;
  reset.addEventListener('click', () => {
    if (armed === undefined) {
      reset.textContent = 'Confirm reset';
      reset.classList.add('armed');
      armed = setTimeout(() => {
        armed = undefined;
        reset.textContent = 'Reset';
        reset.classList.remove('armed');
      }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = undefined;
    reset.textContent = 'Reset';
    reset.classList.remove('armed');
    // A JSON body, even empty: the admin API refuses a POST without Content-Type: application/json (admin-api.ts, checkForm).
    void act('reset (start-up markets, deviations, tick, behaviours, clock)', () => adminCall('POST', '/reset', {}));
  });
  return {
    render(state) {
      const global = Object.keys(state.global).length === 0 ? [] : [h('li', {}, h('span', {}, `global: ${describe(state.global)}`))];
      const rules = state.rules.map((rule) => h('li', {},
        h('span', { class: 'mono' }, rule.id), h('span', {}, ` ${describe(rule.match)} → ${describe(rule.behaviour)}${rule.times === undefined ? '' : ` · ${rule.times} left`}`),
        removeButton(`remove rule ${rule.id}`, () => void act(`remove rule ${rule.id}`, () => adminCall('DELETE', `/behaviours/rules/${encodeURIComponent(rule.id)}`)))));
      replace(byId('rule-list', HTMLElement), ...(global.length + rules.length === 0 ? [h('li', { class: 'muted' }, 'none: answers as fast as the stub can')] : [...global, ...rules]));
    },
    tick,
  };
}
