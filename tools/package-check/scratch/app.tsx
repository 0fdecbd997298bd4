import { AccountProvider, CodeInput, useSession } from '@portico/account-react';
import { createAccountClient } from '@portico/account-sdk';
import { useState } from 'react';

const client = createAccountClient({ aid: 1128 });

function Probe() {
  const session = useSession();
  const [code, setCode] = useState('');
  return (
    <>
      <p>{session.data ? session.data.screen_name : 'signed out'}</p>
      <CodeInput label="Code" value={code} onChange={setCode} />
    </>
  );
}

export const App = () => (
  <AccountProvider client={client} language="en">
    <Probe />
  </AccountProvider>
);
