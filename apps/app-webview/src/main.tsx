import { mountApp } from '@portico/account-pages';
import { accountClient, captcha, languageStore, queryClient } from './lib/account';
import { createRouter } from './router';
import '@portico/account-pages/styles.css';
import './app.css';

mountApp({ client: accountClient, queryClient, languageStore, captcha, router: createRouter() });
