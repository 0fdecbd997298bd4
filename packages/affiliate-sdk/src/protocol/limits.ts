/** Size caps of the organisation fields, shared by the SDK's types and the server's schemas. */
export const ORGANISATION_LIMITS = {
  /** subject_name, deputy_name, role_name: characters. */
  nameMax: 64,
  /** base_infos and detail_infos, each, serialised as JSON: bytes. */
  infosMaxBytes: 8192,
  /** Nesting depth of base_infos / detail_infos. */
  infosMaxDepth: 5,
  roleKeyMax: 64,
  descriptionMax: 512,
  /** Permission entries of one role. */
  permissionsMax: 200,
  /** Identities in one user-role call. */
  identitiesPerCall: 100,
  identityCardMax: 32,
  realNameMax: 64,
  /** An invitation's or an acceptance's `extra`, serialised as JSON: bytes. */
  extraMaxBytes: 2048,
  /** Roles one invitation grants. */
  inviteRolesMax: 20,
  /** A workplace-chat contact (a user id or handle in the chat system): characters. */
  chatContactMax: 128,
} as const;

/** Invitations live 7 days unless the server is configured otherwise (INVITE_TTL_SECONDS). */
export const INVITE_TTL_DEFAULT_SECONDS = 7 * 24 * 3600;

/** The role key the manager is known by; no role may be created with it. */
export const MANAGER_ROLE_KEY = 'manager';
