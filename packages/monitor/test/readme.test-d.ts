// The README's first example, verbatim: it must compile against the package as it is.
import { challengePlugin, createAccountClient } from '@portico/account-sdk';
import { createCaptchaLoader } from '@portico/captcha-loader';
import { it } from 'vitest';
import {
  captchaEvents,
  createMonitor,
  jsErrors,
  monitorPlugin,
  pageViews,
  resourceErrors,
  resourceTiming,
  sessionStart,
  webVitals,
} from '../src/index';

it("the README's example compiles", () => {
  const monitor = createMonitor({ app: 1128, flavour: 'web' }); // posts to /monitor/batch/ on this origin

  const captcha = captchaEvents();
  monitor.use(
    sessionStart(),
    pageViews(),
    jsErrors(),
    resourceErrors(),
    resourceTiming(),
    webVitals(),
    captcha,
  );

  // The challenge loader reports its loads and fall-backs through the collector's hooks.
  const loader = createCaptchaLoader({ aid: 1128, ...captcha.hooks });

  // The account SDK's calls: path, status, duration, error code and log id (never a query or payload).
  // Use the monitor after the other plugins, so it sees what they made of each response.
  const client = createAccountClient({ aid: 1128 });
  client.use(challengePlugin({ captcha: loader }));
  client.use(monitorPlugin(monitor));

  // The sign-in funnel, from your sign-in screen:
  monitor.funnel('method_shown', { method: 'mobile_code' });
  monitor.funnel('code_sent', { method: 'mobile_code' });
  monitor.funnel('challenge_shown', { method: 'mobile_code' });
  monitor.funnel('challenge_solved', { method: 'mobile_code' });
  monitor.funnel('signed_in', { method: 'mobile_code' });
  monitor.funnel('failed', { method: 'mobile_code', error_code: 1105 });
});
