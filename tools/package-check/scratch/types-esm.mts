import { type AccountClient, createAccountClient } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { createCaptchaLoader } from '@portico/captcha-loader';
import { createMonitor } from '@portico/monitor';

export const client: AccountClient = createAccountClient({ aid: 1128 });
export const code: number = CodeType.login;
export const loader = createCaptchaLoader({ aid: 1128 });
export const monitor = createMonitor;
export { createSubjectByUsername } from '@portico/affiliate-sdk';
export { affiliatePaths } from '@portico/affiliate-sdk/protocol';
