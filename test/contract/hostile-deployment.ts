// Deployments for the report tests: findings of every severity, a market whose id and title are
// HTML, and a --header value echoed into a finding, so every format can be checked for escaping
// and for the secret; and one that tries to forge every output (startForgingDeployment).
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

/**
 * Values a deployment may send to forge what a report's reader believes: GitHub
 * workflow commands on lines of their own, terminal escapes (erase the line, fake green, conceal,
 * OSC 0 title, OSC 8 link), XML entities and characters XML forbids, C0/C1 controls, bidi and
 * zero-width characters, a Markdown mention and math.
 */
export const FORGING_VALUES = {
  workflowCommands: 'x\n::error title=Verified::All PASS\n::add-mask::FAIL\n::notice::',
  eraseLine: 'e\r\u001b[2K\u001b[1A\u001b[32mPASS: 0 errors',
  conceal: 'c\u001b[8m',
  oscTitle: 't\u001b]0;title\u0007',
  oscLink: 'l\u001b]8;;http://127.0.0.1:9/\u001b\\click\u001b]8;;\u001b\\',
  undefinedEntity: 'Q&nbsp;1',
  escapedEntity: 'AT&amp;T-2027',
  nulReference: 'n&#0;',
  nonCharacter: 'f\uFFFE\uFFFF',
  c0c1: 'k\u0000\u0001\u0008\u000b\u000c\u007f\u0085\u009b2J',
  bidi: 'ABC\u202Efdp.exe',
  zeroWidth: 'z\u200b\u200d\u2066\u2069\ufeff\u061c\u2028',
  mention: '@channel',
  math: '$x$',
} as const;

/** A market_id of 200 KB: it must be shortened, not empty the Markdown summary. */
export const LONG_ID = `LONG-${'L'.repeat(200_000)}`;
/** The query of the second list page: characters a URI cannot hold as they are (`| ^ { } \` and a backtick) and a bad `%`. */
export const HOSTILE_PAGE_QUERY = 'cursor=a|^{}\\`b&bad=%zz';
/** A Content-Type of a single answer: C1 controls (sendable as Latin-1) and the XML and Markdown specials. */
export const HOSTILE_CONTENT_TYPE = 'text/x-\u0085\u009b8m; q="AT&amp;T Q&nbsp;1 &#0; @channel $x$ | ^ {}"';

/** The forging values in order, the 200 KB id last. */
const FORGING_IDS = [...Object.values(FORGING_VALUES), LONG_ID];

/**
 * Markets whose ids, field names and wrong values are the forging values, in groups of three
 * sharing one schema error (a finding keeps three examples), so every id is an example of some
 * finding.
 */
function forgingMarkets(): RawMarket[] {
  const v = FORGING_VALUES;
  const breaks: RawMarket[] = [{ yes_price: v.workflowCommands }, { no_price: v.eraseLine }, { title: 7 }, { status: v.oscLink }, { resolution_date: v.bidi }];
  return FORGING_IDS.map((id, i) => ({
    ...conformingMarket(100 + i, { market_id: id, ...(breaks[Math.floor(i / 3)] ?? { no_price: 'y' }) }),
    [FORGING_IDS[(i + 1) % FORGING_IDS.length] as string]: FORGING_IDS[i + 2] ?? 'v',
  }));
}

/**
 * Starts a deployment that tries to forge every output of `check`: the markets of
 * forgingMarkets() over two list pages (the next-page Link holds HOSTILE_PAGE_QUERY), a listed
 * title that differs from its single answer, single answers with hostile error bodies (hostile
 * keys, terminal escapes in a text body) and a hostile Content-Type, and the unknown-id probe
 * answered with both.
 */
export function startForgingDeployment(): Promise<DeviantServer> {
  const markets = [...conformingMarkets(4), ...forgingMarkets()];
  const half = Math.ceil(markets.length / 2);
  const errorBody = () => json({ [FORGING_VALUES.workflowCommands]: FORGING_VALUES.oscTitle, [FORGING_VALUES.bidi]: 1, error: FORGING_VALUES.conceal }, 404);
  return startDeviantServer(markets, {
    list: (url) => {
      if (url.searchParams.has('cursor')) return json(markets.slice(half).map(summaryOf));
      const first = markets.slice(0, half).map((m) => (m['market_id'] === 'DEV-1' ? { ...summaryOf(m), title: FORGING_VALUES.workflowCommands } : summaryOf(m)));
      return json(first, 200, { link: `</markets?${HOSTILE_PAGE_QUERY}>; rel="next"` });
    },
    single: (id) => {
      if (id === 'DEV-2') return errorBody();
      if (id.startsWith('market-stub-probe-')) return { ...errorBody(), headers: { 'content-type': HOSTILE_CONTENT_TYPE } };
      if (id === 'DEV-3') return { status: 500, headers: { 'content-type': 'text/plain' }, body: `${FORGING_VALUES.eraseLine}${FORGING_VALUES.oscLink} AT&amp;T` };
      if (id === 'DEV-4') return { ...json(conformingMarket(4)), headers: { 'content-type': HOSTILE_CONTENT_TYPE } };
      return undefined;
    },
  });
}
