// Signs in by SMS code against a tiny local passport fixture, with the built SDK.
// Run: pnpm --filter @portico/account-sdk run build && pnpm --filter @portico/account-sdk run example
import { randomBytes, randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import {
  accountInfo,
  createAccountClient,
  isAccountError,
  sendMobileCode,
  smsLogin,
} from '@portico/account-sdk';
import { CodeType, decodeMixedFields, paths, webFailure, webSuccess } from '@portico/account-sdk/protocol';

// ---- the fixture passport: send_code, sms_login, account_info with the web envelope -------------------
const codes = new Map(); // mobile -> code
const sessions = new Map(); // session id -> mobile
const server = createServer(async (req, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const url = new URL(req.url, 'http://fixture');
  const form = decodeMixedFields(Object.fromEntries(new URLSearchParams(raw)));
  const session = /sessionid=(\w+)/.exec(req.headers.cookie ?? '')?.[1];
  const headers = { 'content-type': 'application/json', 'x-tt-logid': randomBytes(8).toString('hex') };
  let body;
  if (url.pathname === paths.web.sendCode) {
    const code = String(randomInt(100000, 1000000));
    codes.set(form.mobile, code);
    console.log(`  [fixture] SMS to ${form.mobile}: your code is ${code}`);
    body = webSuccess({ retry_time: 60 });
  } else if (url.pathname === paths.web.smsLogin) {
    if (codes.get(form.mobile) !== form.code) body = webFailure(1301, '验证码错误');
    else {
      const id = randomBytes(16).toString('hex');
      sessions.set(id, form.mobile);
      headers['set-cookie'] = `sessionid=${id}; HttpOnly; Path=/`;
      body = webSuccess({ user_id: 1, mobile: form.mobile });
    }
  } else if (url.pathname === paths.web.accountInfo) {
    body = sessions.has(session)
      ? webSuccess({ user_id: 1, mobile: sessions.get(session), screen_name: 'Portico user' })
      : webFailure(1101, '请先登录');
  } else body = webFailure(1005, 'Not found');
  res.writeHead(200, headers).end(JSON.stringify(body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
console.log(`fixture passport listening on ${baseUrl}`);

// ---- the SDK, as an app would use it -------------------------------------------------------------
// Outside a browser there is no cookie store, so this example keeps one with two ky hooks
// (`hooks` run in every call; a plugin attached with `client.use` would do the same).
const cookies = new Map();
const client = createAccountClient({
  aid: 1128,
  baseUrl,
  appName: 'portico-example',
  hooks: {
    beforeRequest: [
      ({ request }) => void request.headers.set('cookie', [...cookies].map((c) => c.join('=')).join('; ')),
    ],
    afterResponse: [
      ({ response }) => {
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const at = pair.indexOf('=');
          cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
      },
    ],
  },
});

const mobile = '+8613800000000';
try {
  console.log('1. account info before signing in:');
  await accountInfo(client).catch((error) => {
    if (!isAccountError(error, 'response')) throw error;
    console.log(
      `   rejected as expected: error_code ${error.error_code} "${error.description}" (log id ${error.log_id})`,
    );
  });

  console.log(`2. send a login code to ${mobile}`);
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });

  console.log('3. a wrong code is rejected with an AccountError:');
  await smsLogin(client, { mobile, code: '000000' }).catch((error) => {
    console.log(`   ${error.name} ${error.kind} ${error.error_code} "${error.description}"`);
  });

  const code = codes.get(mobile); // what the user would type from the SMS printed above
  console.log(`4. sign in with the code ${code}`);
  console.log('  ', await smsLogin(client, { mobile, code }));

  console.log('5. account info, signed in:');
  console.log('  ', await accountInfo(client));
} finally {
  server.close();
}
