import { operationRoute } from '../../adapters/operation-route';
import type { Operation } from '../../operations/define';
import { type ConsoleCapability, consoleOperations } from '../../operations/operator/console';
import { CommonQuery, FORM } from '../../schemas/common';

/**
 * The admin console's calls (docs/admin-console.md): thin adapters over the management API's
 * operations with the operator's session as the caller, in the web envelope and CSRF-checked like every
 * page route. Reads are GETs (their input the query), changes POSTs (a form).
 */
const SUMMARIES: Record<ConsoleCapability, string> = {
  'users/list': 'find accounts by a mobile, e-mail or username (from the start) or an id, newest first',
  'users/get': 'one account, with its identifiers',
  'users/overview': "an account's factors, remembered devices and organisations",
  'users/sessions': "an account's live sessions",
  'users/linked_accounts': "an account's linked third-party accounts",
  'users/freeze': 'freeze (ban) an account: it cannot sign in and its sessions end',
  'users/unfreeze': 'thaw a frozen account',
  'users/revoke_sessions': 'end every session of an account',
  'users/reset_factors': "remove an account's authenticator app, recovery codes and passkeys",
  'organisations/list': 'the organisations, newest first',
  'organisations/get': 'one organisation',
  'organisations/members': "an organisation's members",
  'organisations/freeze': 'freeze (is_frozen=1) or thaw (0) an organisation',
  'audit/list': 'the audit log, newest first, filtered',
};

/** The server's own paths (no SDK names them: the console is their one caller). */
export const operatorConsolePath = (capability: ConsoleCapability) =>
  `/passport/web/operator/console/${capability}/`;

const isRead = (capability: ConsoleCapability) =>
  /\/(list|get|overview|sessions|linked_accounts|members)$/.test(capability);

export const operatorConsoleRoutes = (Object.keys(consoleOperations) as ConsoleCapability[]).map(
  (capability) => {
    const summary = `Admin console: ${SUMMARIES[capability]}`;
    return operationRoute(consoleOperations[capability] as Operation, {
      method: isRead(capability) ? 'GET' : 'POST',
      schema: isRead(capability)
        ? { summary, tags: ['operator'] }
        : { summary, tags: ['operator'], consumes: FORM, querystring: CommonQuery },
      at: [['web', operatorConsolePath(capability)]],
    });
  },
);
