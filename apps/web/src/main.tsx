import { mountApp } from '@portico/account-pages';
import { languageStore } from './i18n/language';
import { accountClient, captcha, queryClient } from './lib/account';
import { createRouter } from './router';
import '@portico/account-pages/styles.css';
import './styles.css';

mountApp({ client: accountClient, queryClient, languageStore, captcha, router: createRouter() });
