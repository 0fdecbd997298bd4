import * as apiKeys from './api-keys';
import * as audit from './audit';
import * as connections from './connections';
import * as domains from './domains';
import * as identity from './identity';
import * as invitations from './invitations';
import * as members from './members';
import * as roles from './roles';
import * as subjects from './subjects';
import * as transfer from './transfer';

/** The affiliate family (/passport/aff/web/…) and member switch, for routes/families. */
export const AFF_ROUTES = [
  ...Object.values(subjects),
  ...Object.values(members),
  ...Object.values(roles),
  ...Object.values(identity),
  ...Object.values(invitations),
  ...Object.values(transfer),
  ...Object.values(audit),
  ...Object.values(apiKeys),
  ...Object.values(domains),
  ...Object.values(connections),
];
