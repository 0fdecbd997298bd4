// The SDK from Node against a running passport server: a cookie jar instead of a browser, the CSRF
// token copied by the SDK as in a page, an SMS code read from the server's dev outbox.
// Run: sh scripts/run.sh start (in another terminal), then
//      PASSPORT_URL=http://localhost:3000 node packages/account-sdk/examples/node-sign-in.mjs
// CI runs it against the real server (apps/passport-server/test/sdk/node-example.test.ts).
import {
  accountInfo,
  createAccountClient,
  createCookieJar,
  logout,
  sendMobileCode,
  smsLogin,
} from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';

const baseUrl = process.env.PASSPORT_URL ?? 'http://localhost:3000';
const mobile = process.env.MOBILE ?? `+86139${String(Date.now()).slice(-8)}`;

const jar = createCookieJar();
const client = createAccountClient({ aid: 1128, baseUrl, fetch: jar.fetch, document: jar.document });

await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
// A real deployment texts the code; the development server keeps it in its outbox.
const outbox = await (await fetch(`${baseUrl}/dev/outbox/messages?to=${encodeURIComponent(mobile)}`)).json();
const code = /\b(\d{6})\b/.exec(outbox.data.messages[0]?.text ?? '')?.[1];
if (!code) throw new Error(`no code for ${mobile} in ${baseUrl}/dev/outbox`);

const signedIn = await smsLogin(client, { mobile, code });
console.log(`signed in: user ${signedIn.user_id}`);
const me = await accountInfo(client);
console.log(`account info: user ${me.user_id}, mobile ${me.mobile}`);
console.log(`the jar holds: ${[...jar.cookies.keys()].sort().join(', ')}`);
await logout(client);
console.log('signed out');
