import { byId } from './dom.js';

/** The console's keys, outside text fields: / search, f filter, t tick, p pause, r reload, ? help, Esc leave a field or close help. */
export function bindKeys(actions: { tick(): void; pause(): void; reload(): void }): void {
  const help = byId('help', HTMLElement);
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
    if (event.key === 'Escape') {
      if (typing) target.blur();
      help.hidden = true;
      return;
    }
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const focus = (id: string) => {
      event.preventDefault();
      byId(id, HTMLInputElement).focus();
    };
    switch (event.key) {
      case '/':
        return focus('catalog-search');
      case 'f':
        return focus('journal-filter');
      case 't':
        return actions.tick();
      case 'p':
        return actions.pause();
      case 'r':
        return actions.reload();
      case '?':
        help.hidden = !help.hidden;
        return;
    }
  });
}
