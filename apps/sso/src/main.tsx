import { useLanguageStore } from '@portico/account-pages';
import { AccountProvider } from '@portico/account-react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { accountClient, languageStore, queryClient } from './lib/account';
import { createRouter } from './router';
import '@portico/account-pages/styles.css';

const router = createRouter();

function App() {
  const language = useLanguageStore(languageStore);
  return (
    <AccountProvider client={accountClient} queryClient={queryClient} language={language}>
      <RouterProvider router={router} />
    </AccountProvider>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
