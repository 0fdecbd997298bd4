/**
 * The one seam to the shared protocol tables (paths, code types, error catalogue, envelopes, mix codec).
 * Everything in the server imports protocol names from here.
 */
export * from '@portico/account-sdk/protocol';
export * from '@portico/affiliate-sdk/protocol';
