/**
 * `@portico/affiliate-sdk/protocol`: the organisation tables the SDK and the passport server share —
 * paths, the 16xx error range and its texts, the access statement, limits and the wire types.
 */
export * from './errors';
export * from './limits';
export * from './paths';
export * from './statement';
export type * from './types';
