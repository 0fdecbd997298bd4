import sdk = require('@portico/account-sdk');
import protocol = require('@portico/account-sdk/protocol');

export const client: sdk.AccountClient = sdk.createAccountClient({ aid: 1128 });
export const code: number = protocol.CodeType.login;
