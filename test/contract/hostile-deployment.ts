// A deployment for the report tests: findings of every severity, a market whose id and title are
// HTML, and a --header value echoed into a finding, so every format can be checked for escaping
// and for the secret.
import { conformingMarket, conformingMarkets, json, startDeviantServer, summaryOf, type DeviantServer, type RawMarket } from './deviant-server.js';

/** A market_id that runs script if a report ever renders it as HTML. */
export const HOSTILE_ID = '<img src=x onerror=alert(1)>';
/** A listed title that differs from its single answer's, so a finding shows it. */
export const HOSTILE_TITLE = '<script>alert("title")</script> | **bold** [link](http://127.0.0.1:9/x)';
/** The --header value the tests send; it holds HTML and JSON specials to try every escaping. */
export const SECRET_VALUE = 's3cr3t&<tok>"-5f3a9c71';
/** The header as given to --header / MARKET_STUB_HEADER. */
export const SECRET_HEADER = `Authorization: Bearer ${SECRET_VALUE}`;

/** 20 markets: a hostile id with a string price, a 0.93 sum, a 404, a slow answer, a title mismatch, and one echoing the Authorization header. */
export function hostileMarkets(): RawMarket[] {
  return [
    conformingMarket(1, { market_id: HOSTILE_ID, yes_price: '0.57' }),
    conformingMarket(2, { yes_price: 0.6, no_price: 0.33 }),
    ...conformingMarkets(20).slice(2),
  ];
}

/** Starts the deployment of hostileMarkets(). */
export function startHostileDeployment(): Promise<DeviantServer> {
  const markets = hostileMarkets();
  return startDeviantServer(markets, {
    list: () => json(markets.map((m) => (m['market_id'] === 'DEV-6' ? { ...summaryOf(m), title: HOSTILE_TITLE } : summaryOf(m)))),
    single: (id, _url, req) => {
      if (id === 'DEV-4') return json({ error: 'gone' }, 404);
      if (id === 'DEV-5') return json(conformingMarket(5, { yes_price: String(req.headers.authorization ?? '') }));
      if (id === 'DEV-7') return { ...json(conformingMarket(7)), delayMs: 60 };
      return undefined;
    },
  });
}
