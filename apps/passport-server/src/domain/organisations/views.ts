import type { DeputyRow, RoleRow, SubjectRow } from '../../db/schema';
import { storedPermissions } from './organisations';

/** What the client sees of the organisation rows: no sealed values, JSON parsed, flags as 0/1. */

const parsed = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** A stored 0/1 flag as the wire's 0 | 1. */
export const flag = (value: number | bigint | string): 0 | 1 => (Number(value) === 1 ? 1 : 0);

export const subjectView = (s: SubjectRow) => ({
  sec_subject_uid: s.id,
  subject_name: s.name,
  base_infos: parsed(s.base_infos),
  detail_infos: parsed(s.detail_infos),
  has_real_name: s.identity_card_sealed !== null || s.real_name_sealed !== null,
  is_frozen: flag(s.is_frozen),
  require_second_factor: flag(s.require_second_factor),
  created_at: Number(s.created_at),
});

/** `awaiting`: a membership SCIM made that waits, frozen, for the person to accept it (docs/scim.md). */
export const deputyView = (d: DeputyRow, roleKeys: string[] = [], awaiting = false) => ({
  user_identity_id: d.id,
  sec_subject_uid: d.subject_id,
  sec_user_id: d.user_id,
  deputy_name: d.deputy_name,
  is_manager: Number(d.is_manager) === 1,
  is_frozen: flag(d.is_frozen),
  awaiting_acceptance: awaiting,
  role_keys: roleKeys,
  created_at: Number(d.created_at),
});

export const roleView = (r: RoleRow) => ({
  role_key: r.role_key,
  role_name: r.role_name,
  permissions: storedPermissions(r.permissions),
  description: r.description,
  is_banned: flag(r.is_banned),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});
