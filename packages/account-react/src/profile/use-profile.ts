import {
  type CancelWay,
  cancelConfirm,
  cancelRequest,
  exportUserData,
  type ProfileData,
  reviewPic,
  saveLanguage,
  type UpdateUserInfoPayload,
  type UploadedImage,
  updateUserInfo,
  uploadAvatar,
  uploadPic,
} from '@portico/account-sdk';
import { useAccountMutation } from '../account-mutation';
import { accountQueryKeys } from '../query-keys';
import { signedOut } from '../session/session-cache';
import { useTouchingMutation } from '../touching-mutation';
import { profileQueryKeys as keys } from './profile-keys';

/** What a profile change moves: the profile, its quotas and defaults, and the header's session. */
const profileChanged = () => [keys.profile, keys.quotas, keys.defaults, accountQueryKeys.session];

/** Saves profile fields (`updateUserInfo`); a quota refusal is the error `UPDATE_LIMIT_REACHED`. */
export const useUpdateProfile = () =>
  useTouchingMutation(
    (client, v: UpdateUserInfoPayload) => updateUserInfo<ProfileData>(client, v),
    profileChanged,
  );

/**
 * Saves the signed-in person's language (`saveLanguage`): a browser with no choice of its own starts
 * in it when they sign in there. Nothing cached holds it.
 */
export const useSaveLanguage = () =>
  useTouchingMutation(
    (client, language: 'zh' | 'en') => saveLanguage(client, { language }),
    () => [],
  );

/** Uploads a new avatar (`uploadAvatar`). */
export const useUploadAvatar = () =>
  useTouchingMutation(
    (client, avatar: File) => uploadAvatar<UploadedImage>(client, { avatar }),
    profileChanged,
  );

/** Uploads a picture, `sensitive` ones held for review (`uploadPic`); nothing cached lists them. */
export const useUploadPicture = () =>
  useTouchingMutation(
    (client, { file, sensitive }: { file: File; sensitive: boolean }) =>
      uploadPic<UploadedImage>(client, { pic: file, is_sensitive: sensitive ? 1 : 0 }),
    () => [],
  );

/** An operator approves or rejects a picture under review (`reviewPic`). */
export const useReviewPicture = () =>
  useTouchingMutation(
    (client, v: { key: string; approve: 0 | 1 }) => reviewPic(client, v),
    () => [keys.review],
  );

/** Everything the account holds, as JSON (`exportUserData`), to keep before cancelling. */
export const useExportUserData = () =>
  useTouchingMutation(
    // biome-ignore lint/suspicious/noConfusingVoidType: the mutation takes no variables, mutate() alone
    (client, _: void) => exportUserData(client),
    () => [],
  );

/** Sends the cancellation code to the way's own mobile or e-mail. */
export const useSendCancellationCode = () =>
  useTouchingMutation(
    (client, way: CancelWay['way']) => cancelRequest<{ target: string }>(client, { way, send: 1 }),
    () => [],
  );

/** Proves it is the person (a code or the password) for the ticket that confirms the cancellation. */
export const useVerifyCancellation = () =>
  useTouchingMutation(
    (client, v: { way: CancelWay['way']; code?: string; password?: string }) =>
      cancelRequest<{ cancel_ticket: string }>(client, v),
    () => [],
  );

/** Confirms the cancellation: signed out everywhere, this browser included. */
export const useConfirmCancellation = () =>
  useAccountMutation(
    (client, cancel_ticket: string) =>
      cancelConfirm<{ state: string; erase_at: number }>(client, { cancel_ticket }),
    signedOut,
  );

/** Withdraws a requested cancellation during its cooling-off period: the account is whole again. */
export const useAbandonCancellation = () =>
  useTouchingMutation(
    // biome-ignore lint/suspicious/noConfusingVoidType: the mutation takes no variables, mutate() alone
    (client, _: void) => cancelConfirm(client, { abandon: 1 }),
    () => [accountQueryKeys.session, keys.cancelCheck],
  );
