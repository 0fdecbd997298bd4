import {
  type AccountClient,
  type CancelCheckData,
  type CancelWay,
  cancelCheck,
  cancelVerifyWay,
  checkDefaultInfo,
  defaultAvatars,
  isAccountError,
  type ProfileData,
  pendingPics,
  type RemainUpdateTimesData,
  recommendName,
  remainUpdateTimes,
  updateUserInfo,
} from '@portico/account-sdk';
import { ErrorCode } from '@portico/account-sdk/protocol';
import { queryOptions } from '@tanstack/react-query';
import { profileQueryKeys as keys } from './profile-keys';

/** A profile field with an update quota. */
export type ProfileField = 'name' | 'avatar' | 'description' | 'birthday' | 'gender';

/** The profile: `updateUserInfo` with no field changes nothing and answers the profile as it is. */
export const profileQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: keys.profile,
    queryFn: ({ signal }) => updateUserInfo<ProfileData>(client, {}, { signal }),
  });

/** How many more times a field may change, and when next (`remainUpdateTimes`). */
export const profileQuotaQueryOptions = (client: AccountClient, field: ProfileField) =>
  queryOptions({
    queryKey: keys.quota(field),
    queryFn: ({ signal }) => remainUpdateTimes<RemainUpdateTimesData>(client, { field }, { signal }),
  });

/** Which fields still hold the generated defaults (`checkDefaultInfo`, scene `profile`). */
export const profileDefaultsQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: keys.defaults,
    queryFn: ({ signal }) =>
      checkDefaultInfo<{ is_default: boolean; default_fields: string[] }>(
        client,
        { scene: 'profile' },
        { signal },
      ),
  });

/** The app's default avatars (they do not change while the page is open). */
export const defaultAvatarsQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: keys.avatars,
    queryFn: ({ signal }) =>
      defaultAvatars<{ images: { key: string; url: string }[] }>(client, {}, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * Suggested display names (`recommendName`) in `language` (default: the client's): the page's language
 * when it switches without a reload, each language its own cache entry.
 */
export const recommendedNamesQueryOptions = (client: AccountClient, language = client.language) =>
  queryOptions({
    queryKey: [...keys.names, language],
    queryFn: ({ signal }) => recommendName<{ names: string[] }>(client, { language }, { signal }),
  });

/** A sensitive picture waiting for an operator's review. */
export interface PendingPicture {
  key: string;
  url: string;
  owner_id: string;
  created_at: number;
}

/** An operator's review queue; `null` for everybody else (NOT_AN_OPERATOR is an answer, not a failure). */
export const reviewQueueQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: keys.review,
    queryFn: async ({ signal }): Promise<PendingPicture[] | null> => {
      try {
        return (await pendingPics<{ pictures: PendingPicture[] }>(client, {}, { signal })).pictures;
      } catch (error) {
        if (isAccountError(error, 'response') && error.error_code === ErrorCode.notAnOperator) return null;
        throw error;
      }
    },
  });

/** What blocks a cancellation and what it would erase (`cancelCheck`). */
export const cancelCheckQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: keys.cancelCheck,
    queryFn: ({ signal }) => cancelCheck<CancelCheckData>(client, {}, { signal }),
  });

/** The ways the person may prove it is them before cancelling (`cancelVerifyWay`). */
export const cancelWaysQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: keys.cancelWays,
    queryFn: async ({ signal }) =>
      (await cancelVerifyWay<{ ways: CancelWay[] }>(client, {}, { signal })).ways,
  });
