/**
 * `@portico/account-sdk/protocol`: the tables the SDK and the passport server share — paths, code
 * purposes, the error catalogue, envelopes, the mix codec, defaults and the web-id format.
 */
export * from './challenge';
export * from './code-types';
export * from './defaults';
export * from './envelopes';
export * from './errors';
export * from './mix';
export * from './paths';
export * from './redirect';
export * from './web-id';
