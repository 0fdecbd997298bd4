import { type AccountClient, stepUpPlugin } from '@portico/account-sdk';
import type { SecondVerifyController } from './second-verify-controller';

/**
 * Attaches the SDK's step-up plugin with the provider's dialog; answers the function that removes it.
 * A module of its own, imported after the provider mounts, so that sign-in pages carry none of it.
 */
export const attachStepUp = (client: AccountClient, controller: SecondVerifyController): (() => void) =>
  client.use(stepUpPlugin({ dialog: controller }));
