import { CodeType, isCodeType } from '../protocol';

/** Purposes that verify something the signed-in user holds: sending one needs a session. */
const SIGNED_IN_PURPOSES = new Set<number>([
  CodeType.bind,
  CodeType.bindAlt,
  CodeType.changePassword,
  CodeType.newMobile,
  CodeType.oldMobile,
  CodeType.anotherMobile,
  CodeType.newManager,
]);

export const needsSession = (purpose: number) => SIGNED_IN_PURPOSES.has(purpose);
export const isPurpose = (purpose: number) => isCodeType(purpose);

/**
 * Which purposes each sign-in endpoint consumes. A code is bound to the purpose it was sent for, and an
 * endpoint refuses purposes it does not serve: a registration code (1) never signs in through
 * sms_login, and a login code (24) never registers.
 */
export const SIGN_IN_PURPOSES = {
  smsLogin: new Set<number>([CodeType.mobileLogin, CodeType.login, CodeType.mobileRegister]),
  smsLoginOnly: new Set<number>([CodeType.mobileLogin, CodeType.login]),
  emailCodeLogin: new Set<number>([CodeType.emailLogin, CodeType.mobileRegister]),
  /** sms/authorize: the consent page's SMS sign-in (26 SMS authorise, 27 open auth). */
  smsAuthorize: new Set<number>([CodeType.smsAuthorize, CodeType.openAuth]),
} as const;
