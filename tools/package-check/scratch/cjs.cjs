// Each entry of each tarball, required as a CommonJS back end or test would (ky, ESM-only, is loaded
// through Node's require(esm), which the SDK's engines range asks for).
const { createAccountClient } = require('@portico/account-sdk');
const { CodeType } = require('@portico/account-sdk/protocol');
const { AccountProvider } = require('@portico/account-react');
const { createSubjectByUsername } = require('@portico/affiliate-sdk');
const { createCaptchaLoader } = require('@portico/captcha-loader');
const { createMonitor } = require('@portico/monitor');

const found = {
  createAccountClient,
  CodeType,
  AccountProvider,
  createSubjectByUsername,
  createCaptchaLoader,
  createMonitor,
};
for (const [name, value] of Object.entries(found))
  if (value === undefined) throw new Error(`CJS: ${name} is missing`);
createAccountClient({ aid: 1128, baseUrl: 'http://127.0.0.1:9' });
