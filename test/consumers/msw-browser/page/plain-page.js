// The same dashboard with no service worker: Playwright's page.route answers its requests from
// market-stub's handlers running in the test process (playwright-route.test.mjs).
import { renderDashboard } from './dashboard.js';

window.render = () => renderDashboard(document.getElementById('app'), 'https://api.markets.test');
await window.render();
document.body.dataset.ready = 'true';
