import {
  type AccountClient,
  type ChallengeCaptcha,
  challengePlugin,
  secondVerifyPlugin,
} from '@portico/account-sdk';
import { secondFactorPlugin } from '@portico/affiliate-sdk';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { AccountContext, type AccountContextValue } from './context';
import { type AccountLanguage, toAccountLanguage } from './messages';
import { createAccountQueryClient } from './query-client';
import {
  createSecondVerifyController,
  type SecondVerifyController,
} from './second-verify/second-verify-controller';
import { SecondVerifyDialog } from './second-verify/second-verify-dialog';

export interface AccountProviderProps {
  /** The account client every hook of the tree uses: `createAccountClient({ aid, … })`. Create it once. */
  client: AccountClient;
  /** Default: a `createAccountQueryClient()` made once for this provider. */
  queryClient?: QueryClient;
  /** UI language of the package's texts and error messages. Default: the client's language ('zh'). */
  language?: AccountLanguage;
  /**
   * Answers the passport's challenges for the client (`client.use(challengePlugin(…))`): e.g.
   * `createCaptchaLoader({ aid })`, made once. `false` or absent: no challenge handling (failures that
   * demand one reach the app as they are).
   */
  captcha?: ChallengeCaptcha | false;
  /**
   * Answer second verification (2046) with the provider's dialog (`client.use(secondVerifyPlugin(…))`). Default true;
   * `false` when the app attaches its own handling to the client.
   */
  secondVerify?: boolean;
  /**
   * Answer a step-up (2047: prove it is you before adding or removing a way to sign in) with the same
   * dialog (`client.use(stepUpPlugin(…))`, attached once its module has loaded after mount), then send
   * the refused call again. Default true; `false` when the app attaches its own handling to the client.
   */
  stepUp?: boolean;
  /**
   * Answer an organisation's demand for a second factor (1621: it requires one and the account has
   * none) with the same dialog, which sets up a passkey or an authenticator app
   * (`client.use(secondFactorPlugin(…))` of `@portico/affiliate-sdk`, attached when the provider mounts),
   * then send the refused calls again. Default true; `false` when the app attaches its own handling to the client.
   */
  secondFactor?: boolean;
  /**
   * The region the mobile field selects first, as a region code ('GB'): the app's `default_region`
   * (the server's CLIENT_APPS). Default: the field's first region (CN).
   */
  defaultRegion?: string;
  children?: ReactNode;
}

/**
 * Provides the account client, the UI language and a QueryClient to the hooks and parts below it, wires
 * the challenge (when `captcha` is given), second verification and step-up (its own dialog) into the
 * client, and renders that dialog. The plugins are attached (`client.use`) in effects and removed by their
 * cleanups, so React's StrictMode double mount, a changed `client` or `captcha`, and an unmount leave
 * exactly one of each.
 */
export function AccountProvider({
  client,
  queryClient,
  language,
  captcha,
  secondVerify = true,
  stepUp = true,
  secondFactor = true,
  defaultRegion,
  children,
}: AccountProviderProps) {
  // Made on first need and kept: a new QueryClient per render would drop the cache every render.
  const ownQueryClient = useRef<QueryClient | null>(null);
  if (!queryClient && !ownQueryClient.current) ownQueryClient.current = createAccountQueryClient();
  const activeQueryClient = queryClient ?? ownQueryClient.current!;
  const [controller] = useState(createSecondVerifyController);
  const resolvedLanguage = language ?? toAccountLanguage(client.language);
  const value = useMemo<AccountContextValue>(
    () => ({ client, language: resolvedLanguage, defaultRegion, dialog: controller }),
    [client, resolvedLanguage, defaultRegion, controller],
  );

  useEffect(() => {
    if (!captcha) return;
    return client.use(challengePlugin({ captcha, language: resolvedLanguage }));
  }, [client, captcha, resolvedLanguage]);

  useEffect(() => {
    if (!secondVerify) return;
    const remove = client.use(secondVerifyPlugin({ dialog: controller }));
    return () => {
      remove();
      // A dialog open for this client now has no one to answer it: its sign-in rejects with SECOND_VALID.
      controller.closeAll();
    };
  }, [client, controller, secondVerify]);

  useEffect(() => {
    if (!stepUp) return;
    // Imported after mount (a step-up follows a person's action on a signed-in page), so that sign-in
    // pages carry none of the plugin.
    return attachLater(client, controller, 'attachStepUp');
  }, [client, controller, stepUp]);

  useEffect(() => {
    if (!secondFactor) return;
    // At once, not after a lazy import as the step-up's: an organisation's first calls on a page load
    // can meet the demand before a module arrives, and a slow phone then got the refusal, not the
    // dialog (seen in Chromium on a busy machine). The dialog's panel stays lazy.
    const remove = client.use(secondFactorPlugin({ dialog: controller }));
    return () => {
      remove();
      controller.closeAll();
    };
  }, [client, controller, secondFactor]);

  return (
    <QueryClientProvider client={activeQueryClient}>
      <AccountContext.Provider value={value}>
        {children}
        {secondVerify || stepUp || secondFactor ? <SecondVerifyDialog controller={controller} /> : null}
      </AccountContext.Provider>
    </QueryClientProvider>
  );
}

/**
 * Attaches a plugin of the lazily loaded module once it has loaded; answers the effect's cleanup, which
 * removes it and closes what it opened (its call rejects with the server's failure).
 */
function attachLater(
  client: AccountClient,
  controller: SecondVerifyController,
  attach: 'attachStepUp',
): () => void {
  let live = true;
  let remove: (() => void) | undefined;
  void import('./second-verify/attach-step-up').then((module) => {
    if (live) remove = module[attach](client, controller);
  });
  return () => {
    live = false;
    remove?.();
    controller.closeAll();
  };
}
