/**
 * `@portico/account-sdk/protocol`: the tables the SDK and the passport server share — paths, code
 * purposes, error codes and their texts, limits, envelopes, the mix codec, defaults, the web-id format
 * and the wire types.
 */
export * from './challenge';
export * from './code-types';
export * from './defaults';
export * from './envelopes';
export * from './error-codes';
export * from './error-texts';
export * from './limits';
export * from './mix';
export * from './paths';
export * from './redirect';
export type * from './types';
export * from './web-id';
