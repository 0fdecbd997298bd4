import type { AccountInfo } from '@portico/account-react';

/** The active organisation identity, as `account/info` answers it. */
export type ActiveOrg = NonNullable<AccountInfo['org']>;

/**
 * What a console section needs: the active identity and what its permissions allow. The server decides
 * every permission; the console only hides what the identity's `org.permissions` cannot do.
 */
export interface SectionProps {
  org: ActiveOrg;
  can(permission: string): boolean;
}
