// Each entry of each tarball, imported as an ESM app would.

import { AccountProvider, useSession } from '@portico/account-react';
import { createAccountClient } from '@portico/account-sdk';
import { CodeType, defineErrorRange } from '@portico/account-sdk/protocol';
import { affiliatePlugin, createSubjectByUsername } from '@portico/affiliate-sdk';
import { affiliatePaths } from '@portico/affiliate-sdk/protocol';
import { createCaptchaLoader } from '@portico/captcha-loader';
import { createMonitor, monitorPlugin } from '@portico/monitor';

const found = {
  createAccountClient,
  CodeType,
  defineErrorRange,
  AccountProvider,
  useSession,
  createCaptchaLoader,
  createMonitor,
  monitorPlugin,
  affiliatePlugin,
  createSubjectByUsername,
  affiliatePaths,
};
for (const [name, value] of Object.entries(found))
  if (value === undefined) throw new Error(`ESM: ${name} is missing`);
const client = createAccountClient({ aid: 1128, baseUrl: 'http://127.0.0.1:9' });
if (typeof client.use !== 'function') throw new Error('ESM: the client has no use()');
