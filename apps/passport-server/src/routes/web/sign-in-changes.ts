import { operationRoute } from '../../adapters/operation-route';
import { disownSignInChange, listSignInChanges } from '../../operations/account/sign-in-changes';
import { paths } from '../../protocol';
import { CommonQuery, FORM } from '../../schemas/common';

/** The account centre's recent changes to sign-in methods, and "this wasn't me" (docs/security.md). */
export const signInChangeList = operationRoute(listSignInChanges, {
  method: 'GET',
  schema: {
    summary: 'The signed-in account’s changes to its sign-in methods in the last 30 days, newest first',
    tags: ['account'],
  },
  at: [['web', paths.web.accountSignInChanges]],
});

export const signInChangeDisown = operationRoute(disownSignInChange, {
  method: 'POST',
  schema: {
    summary:
      '“This wasn’t me” on one of those changes: every session of the account ends (this one too) and every remembered device is forgotten',
    tags: ['account'],
    consumes: FORM,
    querystring: CommonQuery,
  },
  at: [['web', paths.web.accountSignInChangesDisown]],
  // This browser's session ended with the others: its cookie goes too.
  after: async (app, request, reply, { output }) => {
    app.sessions.forget(request, reply);
    return output;
  },
});
