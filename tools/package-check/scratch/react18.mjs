// account-react under React 18: its provider, a query hook and a form part render on the server.
import { AccountProvider, CodeInput, createAccountQueryClient, useSession } from '@portico/account-react';
import { createAccountClient } from '@portico/account-sdk';
import { createElement as h, version } from 'react';
import { renderToString } from 'react-dom/server';

if (!version.startsWith('18.')) throw new Error(`expected React 18, found ${version}`);
function Probe() {
  const session = useSession();
  return h(
    'div',
    null,
    h('p', null, session.data ? 'signed in' : 'signed out'),
    h(CodeInput, { label: 'Code', value: '', onChange() {} }),
  );
}
const client = createAccountClient({ aid: 1128, baseUrl: 'http://127.0.0.1:9' });
const queryClient = createAccountQueryClient();
const html = renderToString(h(AccountProvider, { client, queryClient, language: 'en' }, h(Probe)));
// The session query's garbage-collection timer (5 minutes) would keep Node alive after the render.
queryClient.clear();
if (!html.includes('<input')) throw new Error(`no input rendered: ${html}`);
process.stdout.write(html);
