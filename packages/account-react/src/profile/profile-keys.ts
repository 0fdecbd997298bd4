import { accountQueryKeys } from '../query-keys';

const PROFILE = [...accountQueryKeys.all, 'profile'] as const;

/** Keys of the account centre's profile and cancellation queries (under `accountQueryKeys.all`). */
export const profileQueryKeys = {
  all: PROFILE,
  profile: [...PROFILE, 'profile'] as const,
  /** Every field's update quota (`quotas`), or one field's. */
  quotas: [...PROFILE, 'quota'] as const,
  quota: (field: string) => [...PROFILE, 'quota', field] as const,
  defaults: [...PROFILE, 'defaults'] as const,
  avatars: [...PROFILE, 'avatars'] as const,
  names: [...PROFILE, 'names'] as const,
  review: [...PROFILE, 'review'] as const,
  cancelCheck: [...PROFILE, 'cancel-check'] as const,
  cancelWays: [...PROFILE, 'cancel-ways'] as const,
};
