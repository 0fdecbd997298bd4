import { mountApp, startMonitoring } from '@portico/account-pages';
import { AID, accountClient, captcha, languageStore, queryClient } from './lib/account';
import { createRouter } from './router';
import '@portico/account-pages/styles.css';
import './app.css';

mountApp({ client: accountClient, queryClient, languageStore, captcha, router: createRouter() });

// Monitoring (@portico/monitor) loads after first paint, outside the /login first-load budget.
startMonitoring({ app: AID, flavour: 'app', client: accountClient });
