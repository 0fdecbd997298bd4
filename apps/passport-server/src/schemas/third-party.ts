import { Type } from 'typebox';
import { AccountInfo } from './account';
import {
  Code,
  CodeTypeField,
  CommonQuery,
  Email,
  Flag,
  FORM,
  MixMode,
  Mobile,
  TextOrInteger,
} from './common';

/** Third-party sign-in (docs/third-party-sign-in.md): the redirect, the code exchange, linking. */

/** A provider's name (PROVIDERS; a number is accepted on the wire and refused as not configured). */
const PlatformAppId = TextOrInteger(32, 1);
const State = Type.String({ minLength: 1, maxLength: 128 });
const AuthCode = Type.String({ minLength: 1, maxLength: 2048 });
const ProfileKey = Type.String({ minLength: 1, maxLength: 128 });

/** The third-party login redirect's parameters (spec §2). */
export const AuthRedirectQuery = Type.Object(
  {
    platform_app_id: PlatformAppId,
    next: Type.Optional(Type.String({ maxLength: 2048 })),
    aid: Type.Optional(TextOrInteger(32)),
    account_sdk_source: Type.Optional(Type.String({ maxLength: 32 })),
    use_local_host: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Boolean()])),
    action: Type.Optional(Type.String({ maxLength: 32 })),
    /** Organisation mode: the organisation (its sec_subject_uid) the sign-in lands in. */
    subject_aid: Type.Optional(TextOrInteger(64)),
  },
  { additionalProperties: true },
);

export const authRedirectSchema = {
  summary:
    'Third-party sign-in: redirects to GitHub, Google or WeChat with state (and PKCE for GitHub and Google, a nonce for Google)',
  tags: ['third-party'],
  querystring: AuthRedirectQuery,
};

/** The code exchange of a callback page: auth/login, auth/login_only, auth/bind, auth/switch_bind. */
export const AuthCodeBody = Type.Object(
  {
    platform_app_id: PlatformAppId,
    code: Type.Optional(AuthCode),
    state: Type.Optional(State),
    /** RFC 9207: the issuer the callback named, passed through to the check. */
    iss: Type.Optional(Type.String({ maxLength: 512 })),
    redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
    /** auth/login only: create the account of a pending profile instead of a code. */
    profile_key: Type.Optional(ProfileKey),
    unbind_exist: Flag,
    need_frozen_user: Flag,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

const codeExchange = (summary: string) => ({
  summary,
  tags: ['third-party'],
  consumes: FORM,
  querystring: CommonQuery,
  body: AuthCodeBody,
});

export const authLoginOnlySchema = codeExchange(
  'Third-party sign-in: exchanges the code; an unlinked identity answers OAUTH_NOT_LINKED with a profile_key',
);
export const authLoginSchema = codeExchange(
  'Third-party sign-in that creates an account for an unlinked identity (by code, or by profile_key)',
);
export const authBindSchema = codeExchange('Links a third-party identity to the signed-in account');
export const authSwitchBindSchema = codeExchange(
  "Replaces the signed-in account's identity of a provider with another one",
);

export const AuthUnbindBody = Type.Object(
  { platform_app_id: PlatformAppId, mix_mode: MixMode },
  { additionalProperties: true },
);
export const authUnbindSchema = {
  summary: "Unlinks the signed-in account's identity of a provider (refused for the last way in)",
  tags: ['third-party'],
  consumes: FORM,
  querystring: CommonQuery,
  body: AuthUnbindBody,
};

/** Sign in with a code to link a pending profile: mobile/bind_login (mobile), auth/bind_login (either). */
export const BindLoginBody = Type.Object(
  {
    profile_key: ProfileKey,
    mobile: Type.Optional(Mobile),
    email: Type.Optional(Email),
    code: Code,
    type: Type.Optional(CodeTypeField),
    need_frozen_user: Flag,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);
export const mobileBindLoginSchema = {
  summary: 'Signs in (or up) with an SMS code and links the pending third-party profile',
  tags: ['third-party'],
  consumes: FORM,
  querystring: CommonQuery,
  body: BindLoginBody,
};
export const authBindLoginSchema = {
  summary: 'Signs in with an e-mail (or SMS) code to an existing account and links the pending profile',
  tags: ['third-party'],
  consumes: FORM,
  querystring: CommonQuery,
  body: BindLoginBody,
};

export const ProfileKeyQuery = Type.Object(
  {
    profile_key: ProfileKey,
    aid: Type.Optional(TextOrInteger(32)),
  },
  { additionalProperties: true },
);
export const oauthProfileSchema = {
  summary: 'The pending third-party profile of a profile_key (name, avatar), in the browser that signed in',
  tags: ['third-party'],
  querystring: ProfileKeyQuery,
};
export const showOauthMobileSchema = {
  summary: "Whether a pending profile's verified e-mail has an account, and that account's masked mobile",
  tags: ['third-party'],
  querystring: ProfileKeyQuery,
};
export const shareLoginSchema = {
  summary: "Shares this browser's session with another app of the platform (NOT_LOGGED_IN without one)",
  tags: ['third-party'],
  consumes: FORM,
  querystring: CommonQuery,
  body: Type.Object({ mix_mode: MixMode }, { additionalProperties: true }),
};
export const thirdPartyAccountsSchema = {
  summary: 'The configured providers and, signed in, the linked identities',
  tags: ['third-party'],
  querystring: CommonQuery,
};

export const OAuthProfile = Type.Object({
  platform: Type.String(),
  name: Type.String(),
  avatar_url: Type.String(),
  email: Type.String(),
  email_verified: Type.Boolean(),
});
export const ShowOauthMobile = Type.Object({ email_registered: Type.Boolean(), mobile: Type.String() });
export const LinkedIdentity = Type.Object({
  platform: Type.String(),
  name: Type.String(),
  avatar_url: Type.String(),
  email: Type.String(),
  linked_at: Type.Number(),
});
export const ThirdPartyAccounts = Type.Object({
  providers: Type.Array(Type.String()),
  linked: Type.Array(LinkedIdentity),
  /** Per linked provider: whether unlinking it leaves another way in. */
  can_unbind: Type.Record(Type.String(), Type.Boolean()),
});
export const Linked = Type.Object({ linked: Type.Array(LinkedIdentity) });
export { AccountInfo };
