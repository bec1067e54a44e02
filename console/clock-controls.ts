import { adminCall } from './admin-client.js';
import { clockChange, clockView, type ClockReading } from './clock-model.js';
import type { Act } from './deviation-controls.js';
import { byId, replace } from './dom.js';

/** How often a running clock's instant is drawn again between reads, ms. */
const DRAW_MS = 1000;

/**
 * The clock pane: the stub instant (run on locally between reads while the rate is not 0), the
 * rate, the lifecycle when one is on, and two controls, advance (an ISO 8601 duration) and rate,
 * each one `POST /__stub/clock` (docs/admin-api.md "The stub clock"); `render` takes each
 * `GET /__stub/clock` the page reads.
 */
export function createClockControls(act: Act): { render(reading: ClockReading): void } {
  let shown: { reading: ClockReading; readAt: number } | undefined;
  const draw = (): void => {
    if (shown === undefined) return;
    const view = clockView(shown.reading, shown.readAt, Date.now());
    replace(byId('clock-instant', HTMLElement), view.instant);
    replace(byId('clock-pace', HTMLElement), view.pace);
    const lifecycle = byId('clock-lifecycle', HTMLElement);
    lifecycle.hidden = view.lifecycle === undefined;
    replace(lifecycle, view.lifecycle ?? '');
  };
  setInterval(() => {
    if (shown !== undefined && shown.reading.rate !== 0 && !document.hidden) draw();
  }, DRAW_MS);
  const send = (label: string, change: () => ReturnType<typeof clockChange>) => void act(label, () => adminCall('POST', '/clock', change()));
  byId('clock-advance-form', HTMLFormElement).addEventListener('submit', (event) => {
    event.preventDefault();
    const advance = byId('clock-advance', HTMLInputElement).value;
    send(`advance the clock ${advance.trim()}`, () => clockChange(advance, ''));
  });
  byId('clock-rate-form', HTMLFormElement).addEventListener('submit', (event) => {
    event.preventDefault();
    const rate = byId('clock-rate', HTMLInputElement).value;
    send(`clock rate ${rate.trim()}`, () => clockChange('', rate));
  });
  return {
    render(reading) {
      shown = { reading, readAt: Date.now() };
      draw();
    },
  };
}
