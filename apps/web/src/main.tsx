import { mountApp, startMonitoring } from '@portico/account-pages';
import { languageStore } from './i18n/language';
import { AID, accountClient, captcha, queryClient } from './lib/account';
import { createRouter } from './router';
import '@portico/account-pages/styles.css';
import './styles.css';

mountApp({ client: accountClient, queryClient, languageStore, captcha, router: createRouter() });

// Monitoring (@portico/monitor) loads after first paint, outside the /login first-load budget.
startMonitoring({ app: AID, flavour: 'web', client: accountClient });
