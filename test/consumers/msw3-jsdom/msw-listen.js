// msw 3 renamed onUnhandledRequest to onUnhandledFrame (it covers WebSocket frames too). Given the
// old name, msw 3 ignores it and warns only: unhandled requests would reach the real network.
export const LISTEN_OPTIONS = { onUnhandledFrame: 'error' };
