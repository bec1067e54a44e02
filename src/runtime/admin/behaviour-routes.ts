import type { AdminRoute } from './admin-route.js';

/** The behaviours resource: global behaviour and rules. */
export const BEHAVIOUR_ROUTES: readonly AdminRoute[] = [
  { method: 'GET', path: '/behaviours', describe: 'global behaviour and rules in force (times = applications left)', run: ({ controls, where }) => ({ status: 200, body: controls.behaviours(where) }) },
  {
    method: 'DELETE', path: '/behaviours', describe: 'start-up global behaviour and rules again',
    run: ({ controls, where }) => {
      controls.resetBehaviours(where);
      return { status: 204 };
    },
  },
  { method: 'PUT', path: '/behaviours/global', body: true, describe: 'replace the global behaviour', run: ({ controls, where, body }) => ({ status: 200, body: controls.setBehaviour(where, body) }) },
  { method: 'POST', path: '/behaviours/rules', body: true, describe: 'add (or with the same id replace) a rule {match, behaviour, times?, id?}', run: ({ controls, where, body }) => ({ status: 201, body: controls.addRule(where, body) }) },
  {
    method: 'DELETE', path: '/behaviours/rules/{id}', describe: 'remove a rule',
    run: ({ controls, where, params }) => {
      controls.removeRule(where, params['id'] ?? '');
      return { status: 204 };
    },
  },
];
