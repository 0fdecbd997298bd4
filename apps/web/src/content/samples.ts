/** Code a product team copies from the integration page. Kept in one place so the page stays readable. */

export const INSTALL = 'pnpm add @portico/account-sdk @portico/captcha-loader';

export const INSTALL_REACT =
  'pnpm add @portico/account-react @portico/account-sdk @portico/captcha-loader react react-dom @tanstack/react-query';

export const RUN_SERVER = `# in a checkout of Portico: builds what it needs and serves http://localhost:3000
sh scripts/run.sh start

# settings come from the environment, for example
PORT=8080 PUBLIC_ORIGIN=https://passport.example.com DATABASE_URL=postgres://… \\
  SMTP_URL=smtps://… SMS_WEBHOOK_URL=https://… sh scripts/run.sh start`;

export const SDK_SIGN_IN = `import { createAccountClient, isAccountError, sendMobileCode, smsLogin } from '@portico/account-sdk';
import { CodeType, ErrorCode } from '@portico/account-sdk/protocol';

// Once per page. Without baseUrl the client talks to the page's own origin.
const client = createAccountClient({ aid: 1128, baseUrl: 'https://passport.example.com' });

await sendMobileCode(client, { mobile: '+8613800000000', type: CodeType.mobileLogin });

try {
  const user = await smsLogin(client, { mobile: '+8613800000000', code: '123456' });
  console.log('signed in as', user.user_id);
} catch (error) {
  if (isAccountError(error, 'response') && error.error_code === ErrorCode.codeWrong) {
    // translate by error_code, never by parsing the message
  } else throw error;
}`;

export const REACT_SIGN_IN = `import { AccountProvider, CodeInput, ErrorMessage, MobileInput, SubmitButton,
  useSendCode, useSession, useSmsLogin } from '@portico/account-react';
import { createAccountClient } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { createCaptchaLoader } from '@portico/captcha-loader';
import { useState } from 'react';

const client = createAccountClient({ aid: 1128 });
const captcha = createCaptchaLoader({ aid: 1128 });

export function App() {
  return (
    <AccountProvider client={client} captcha={captcha} language="zh">
      <SignIn />
    </AccountProvider>
  );
}

function SignIn() {
  const session = useSession();
  const login = useSmsLogin();
  const sender = useSendCode({ channel: 'mobile', type: CodeType.mobileLogin });
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  if (session.data) return <p>{session.data.screen_name}</p>;
  return (
    <form onSubmit={(event) => { event.preventDefault(); login.mutate({ mobile, code }); }}>
      <MobileInput value={mobile} onChange={setMobile} error={sender.error} />
      <CodeInput value={code} onChange={setCode} onSend={() => sender.send(mobile)}
        sending={sender.isPending} cooldown={sender.cooldown} sendError={sender.error} />
      <ErrorMessage error={login.error} />
      <SubmitButton pending={login.isPending}>Sign in</SubmitButton>
    </form>
  );
}`;

export const USER_TOKEN = `import { paths } from '@portico/account-sdk/protocol';

// In the browser, while signed in: a short-lived token for your own API.
const { token } = await client.request<{ token: string }>({ path: paths.app.GetUserToken });
await fetch('https://api.example.com/orders', { headers: { authorization: \`Bearer \${token}\` } });`;

export const VERIFY_TOKEN = `import { createRemoteJWKSet, jwtVerify } from 'jose';

const jwks = createRemoteJWKSet(new URL('https://passport.example.com/.well-known/jwks.json'));

export async function userIdOf(authorization: string) {
  const { payload } = await jwtVerify(authorization.replace(/^Bearer /, ''), jwks, {
    issuer: 'https://passport.example.com', // the passport's PUBLIC_ORIGIN
    audience: 'https://api.example.com', // one of its USER_TOKEN_AUDIENCES
    algorithms: ['ES256'],
  });
  return payload.sub; // the account's user_id
}`;

export const CONTRIBUTE = `sh scripts/run.sh test     # installs, builds, type-checks and runs every test
pnpm --filter @portico/account-sdk test   # one package while you work
pnpm changeset             # describe a user-visible change for the changelog`;
