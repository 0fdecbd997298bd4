import { type AccountClient, switchMember } from '@portico/account-sdk';
import { leaveSubject } from '../calls';
import type { SubjectRef } from '../protocol/types';

/**
 * Leaves an organisation and stays signed in: leaving ends every session acting as the identity that
 * leaves, so the session acts as the person's own identity first (`switchMember` to '0'), then leaves
 * (`leaveSubject`). Never the manager's identity (`MANAGER_PROTECTED`).
 */
export async function leaveOrganisation(client: AccountClient, payload: SubjectRef): Promise<{ left: true }> {
  await switchMember(client, { to_sec_member_id: '0' });
  return leaveSubject(client, payload);
}
