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
} as const;

/** The role key the manager is known by; no role may be created with it. */
export const MANAGER_ROLE_KEY = 'manager';
