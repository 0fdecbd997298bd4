import {
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
import { accountClient } from './account';

/**
 * The account centre's queries (issue 17): the profile, the update quotas, the default images, the
 * cancellation check. The pages only subscribe; the calls are the SDK's.
 */
const NOT_AN_OPERATOR = ErrorCode.notAnOperator;

export const profileKeys = {
  all: ['portico', 'profile'] as const,
  profile: ['portico', 'profile', 'profile'] as const,
  quota: (field: string) => ['portico', 'profile', 'quota', field] as const,
  defaults: ['portico', 'profile', 'defaults'] as const,
  avatars: ['portico', 'profile', 'avatars'] as const,
  names: ['portico', 'profile', 'names'] as const,
  cancel: ['portico', 'profile', 'cancel'] as const,
  ways: ['portico', 'profile', 'cancel-ways'] as const,
  review: ['portico', 'profile', 'review'] as const,
};

/** The profile: update/user_info with no field changes nothing and answers the profile as it is. */
export const profileQuery = () =>
  queryOptions({
    queryKey: profileKeys.profile,
    queryFn: () => updateUserInfo<ProfileData>(accountClient, {}),
  });

export const quotaQuery = (field: 'name' | 'avatar' | 'description' | 'birthday' | 'gender') =>
  queryOptions({
    queryKey: profileKeys.quota(field),
    queryFn: () => remainUpdateTimes<RemainUpdateTimesData>(accountClient, { field }),
  });

export const defaultInfoQuery = () =>
  queryOptions({
    queryKey: profileKeys.defaults,
    queryFn: () =>
      checkDefaultInfo<{ is_default: boolean; default_fields: string[] }>(accountClient, {
        scene: 'profile',
      }),
  });

export const defaultAvatarsQuery = () =>
  queryOptions({
    queryKey: profileKeys.avatars,
    queryFn: () => defaultAvatars<{ images: { key: string; url: string }[] }>(accountClient),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const recommendNameQuery = () =>
  queryOptions({
    queryKey: profileKeys.names,
    queryFn: () => recommendName<{ names: string[] }>(accountClient),
  });

export const cancelCheckQuery = () =>
  queryOptions({ queryKey: profileKeys.cancel, queryFn: () => cancelCheck<CancelCheckData>(accountClient) });

export const cancelWaysQuery = () =>
  queryOptions({
    queryKey: profileKeys.ways,
    queryFn: () => cancelVerifyWay<{ ways: CancelWay[] }>(accountClient),
  });

export interface PendingPicture {
  key: string;
  url: string;
  owner_id: string;
  created_at: number;
}

/** An operator's review queue; `null` for everybody else (NOT_AN_OPERATOR is an answer, not a failure). */
export const reviewQueueQuery = () =>
  queryOptions({
    queryKey: profileKeys.review,
    queryFn: async (): Promise<PendingPicture[] | null> => {
      try {
        return (await pendingPics<{ pictures: PendingPicture[] }>(accountClient)).pictures;
      } catch (error) {
        if (isAccountError(error, 'response') && error.error_code === NOT_AN_OPERATOR) return null;
        throw error;
      }
    },
  });
