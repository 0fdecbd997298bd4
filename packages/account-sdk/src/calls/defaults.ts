/**
 * The spec's payload defaults, shared by the call declarations. They are the protocol's `DEFAULTS`
 * (test/calls.test.ts pins them to it) written as literals: a call declared with a property read at
 * module level would keep the whole `DEFAULTS` table, and every call, in every page.
 */
export const frozen = { need_frozen_user: 0 } as const;
export const nextRoot = { next: '/' } as const;
/**
 * Logout as a request: the passport answers `{next}` instead of a 302 to `next`, which fetch would
 * follow and resolve as the answer (the page at `next`, not the passport's). `logoutUrl` navigates.
 */
export const logoutByRequest = { next: '/', not_redirect: 1 } as const;
export const kick = { kick_other: 0 } as const;
export const rebind = { kick_other: 0, change_bind: 0 } as const;
export const unbind = { unbind_exist: 0 } as const;
export const normalScene = { scene: 'normal' } as const;
/** The e-mail register code's purpose (`EmailCodeType.register`). */
export const emailRegisterType = { type: 1 } as const;
/** The shape `open/auth/token` answers in unless asked otherwise (`DEFAULTS.responseFormatType`). */
export const appFormat = { response_format_type: 'app' } as const;
