// A small trading dashboard, plain DOM: lists the markets of a Prediction Market Data Service with
// their prices. It must survive what a real deployment does: a 503 (it shows a retry button) and
// contract drift such as a price sent as a string (it shows the row, flags the price, never crashes).

/** Renders the dashboard into `root`, reading `${baseUrl}/markets`. Resolves when drawn. */
export async function renderDashboard(root, baseUrl) {
  root.replaceChildren(text('p', 'Loading markets…', 'status'));
  let response;
  try {
    response = await fetch(`${baseUrl}/markets`);
  } catch {
    return showError(root, baseUrl, 'The market service cannot be reached.');
  }
  if (!response.ok) return showError(root, baseUrl, `The market service answered ${response.status}.`);
  const body = await response.json();
  const markets = Array.isArray(body) ? body : (body.markets ?? body.data ?? []);
  root.replaceChildren(table(markets));
}

function table(markets) {
  const t = document.createElement('table');
  t.className = 'markets';
  t.append(row('th', ['Market', 'Yes', 'No']));
  for (const m of markets) t.append(row('td', [m.title, price(m.yes_price), price(m.no_price)], m.market_id));
  return t;
}

function price(value) {
  return typeof value === 'number' && Number.isFinite(value) ? `${Math.round(value * 100)}¢` : '⚠ bad price';
}

function row(cell, values, id) {
  const tr = document.createElement('tr');
  if (id !== undefined) tr.dataset.marketId = String(id);
  for (const v of values) tr.append(text(cell, String(v ?? '')));
  return tr;
}

function showError(root, baseUrl, message) {
  const retry = text('button', 'Retry');
  retry.addEventListener('click', () => renderDashboard(root, baseUrl));
  root.replaceChildren(text('p', message, 'error'), retry);
}

function text(tag, content, className) {
  const el = document.createElement(tag);
  el.textContent = content;
  if (className) el.className = className;
  return el;
}
