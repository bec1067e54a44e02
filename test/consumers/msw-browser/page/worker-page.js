// The app page of a browser test: MSW's service worker answers the dashboard's fetch calls with
// market-stub's handlers. window.marketStub is the stub's handle, for the test to drive.
import { setupWorker } from 'msw/browser';
import { createMarketStubHandlers } from 'market-stub/msw';
import { renderDashboard } from './dashboard.js';

const BASE = 'https://api.markets.test';
const { handlers, stub } = createMarketStubHandlers({ baseUrl: BASE, seed: 7, count: 5, clock: '2026-01-01' });
const worker = setupWorker(...handlers);

window.marketStub = stub;
window.render = () => renderDashboard(document.getElementById('app'), BASE);
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
await window.render();
document.body.dataset.ready = 'true';
