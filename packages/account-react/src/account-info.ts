/**
 * The wire types account-react's hooks answer with: the account SDK's protocol types, written once
 * there (`@portico/account-sdk/protocol`), re-exported here for the hooks and for apps.
 */
export type { AccountInfo, SendCodeData } from '@portico/account-sdk/protocol';
