// msw 2's option for requests no handler answers: 'error' fails the test instead of letting the
// request reach the real network (msw 3 names it onUnhandledFrame: see ../msw3-jsdom/msw-listen.js).
export const LISTEN_OPTIONS = { onUnhandledRequest: 'error' };
