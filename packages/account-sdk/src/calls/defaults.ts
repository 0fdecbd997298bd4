import { DEFAULTS } from '../protocol/defaults';

/** The spec's payload defaults (from the protocol's `DEFAULTS`), shared by the call declarations. */
export const frozen = { need_frozen_user: DEFAULTS.needFrozenUser } as const;
export const nextRoot = { next: DEFAULTS.next } as const;
/**
 * Logout as a request: the passport answers `{next}` instead of a 302 to `next`, which fetch would
 * follow and resolve as the answer (the page at `next`, not the passport's). `logoutUrl` navigates.
 */
export const logoutByRequest = { next: DEFAULTS.next, not_redirect: 1 } as const;
export const kick = { kick_other: DEFAULTS.kickOther } as const;
export const rebind = { kick_other: DEFAULTS.kickOther, change_bind: DEFAULTS.changeBind } as const;
export const unbind = { unbind_exist: DEFAULTS.unbindExist } as const;
export const normalScene = { scene: DEFAULTS.scene } as const;
