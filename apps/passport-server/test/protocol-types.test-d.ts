/**
 * One contract per payload: each TypeBox schema the server answers with is checked, both ways, against
 * the wire type of `@portico/account-sdk/protocol` that the SDK's calls resolve and the apps read. A
 * field added, dropped, renamed or retyped on either side fails `pnpm typecheck` (this file is in the
 * tsconfig's `include`; vitest does not run it, it has nothing to run).
 */

import type { Static, TObject, TSchema } from 'typebox';
import type {
  AcceptedInvitation,
  AccountExportData,
  AccountInfo,
  AuditPageData,
  CancelCheckData,
  CancelConfirmedData,
  CancelRequestedData,
  CancelWaysData,
  CheckLoginData,
  DefaultInfoData,
  Deputy,
  EmptyData,
  HasPasswordData,
  IdentifierChangedData,
  ImageInfoData,
  ImageListData,
  Invitation,
  InvitationCodeSent,
  InvitationPreview,
  IssuedInvitation,
  LinkedData,
  LoginIdentity,
  LogoutData,
  MemberPermissions,
  MonitorDashboardData,
  NewManagerCandidate,
  OAuthMobileData,
  OAuthProfileData,
  OnlyUserData,
  Page,
  PasskeyData,
  PasskeyListData,
  PasskeyOptionsData,
  PasskeyRemovedData,
  PasswordChangedData,
  PendingPicsData,
  PendingTransfer,
  PermissionExplanation,
  ProfileData,
  RecommendNamesData,
  RegisteredCheckData,
  RegisteredData,
  RegisterLinkSentData,
  RemainUpdateTimesData,
  RememberedDevice,
  ResourceRow,
  Role,
  SendCodeData,
  Subject,
  SwitchedAccountInfo,
  TicketData,
  TransferTicket,
  UploadedImage,
  UserRoleLink,
  UserTokenData,
  VerifiedData,
  WaitlistListData,
} from '../src/protocol';
import type { WaitlistList } from '../src/routes/app/waitlist';
import type { MonitorDashboard } from '../src/routes/monitor/index';
import type { AccountInfo as AccountInfoSchema } from '../src/schemas/account';
import type {
  CheckLoginData as CheckLoginSchema,
  UserTokenData as UserTokenSchema,
} from '../src/schemas/app';
import type { AuditPage } from '../src/schemas/audit';
import type {
  AccountExport,
  CancelCheck,
  CancelConfirmed,
  CancelRequested,
  CancelWays,
} from '../src/schemas/cancel';
import type { IdentifierChanged, Verified } from '../src/schemas/identifiers';
import type {
  AcceptedData,
  CandidateData,
  CodeSentData,
  InvitationData,
  InvitationPage,
  IssuedInvitationData,
  PendingData,
  PreviewData,
  TicketData as TransferTicketSchema,
} from '../src/schemas/invitations';
import type { LogoutData as LogoutSchema } from '../src/schemas/logout';
import type {
  Deleted,
  DeputyData,
  DeputyPage,
  ExplainData,
  IdentityData,
  LinkPage,
  LoginListData,
  PermissionsData,
  ResourcePage,
  RoleData,
  RolePage,
  SignedInAs,
  SubjectData,
  SubjectPage,
} from '../src/schemas/organisations';
import type { Passkey, PasskeyList, PasskeyOptions, PasskeyRemoved } from '../src/schemas/passkeys';
import type { HasSetData, PasswordChanged } from '../src/schemas/password';
import type {
  DefaultInfo,
  ImageInfo,
  ImageList,
  PendingPics,
  Profile,
  RecommendNames,
  RemainUpdateTimes,
  UploadedImage as UploadedImageSchema,
} from '../src/schemas/profile';
import type {
  OnlyUserData as OnlyUserSchema,
  RegisteredAnswer,
  RegisteredData as RegisteredSchema,
  RegisterLinkSentData as RegisterLinkSentSchema,
} from '../src/schemas/register';
import type { Device } from '../src/schemas/second-verify';
import type { SendCodeData as SendCodeSchema } from '../src/schemas/send-code';
import type { Linked, OAuthProfile, ShowOauthMobile } from '../src/schemas/third-party';
import type { TicketData as TicketSchema } from '../src/schemas/verify';

/** True only when A and B are assignable to each other, optional fields and literals included. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only for `true`: the failing pair is named in the error. */
type Expect<T extends true> = T;
/** The schema's static type and the protocol type, checked both ways. */
type Matches<S extends TSchema, P> = Same<Static<S>, P>;

export type Checks = [
  Expect<Matches<typeof AccountInfoSchema, AccountInfo>>,
  Expect<Matches<typeof SendCodeSchema, SendCodeData>>,
  Expect<Matches<typeof TicketSchema, TicketData>>,
  Expect<Matches<typeof CheckLoginSchema, CheckLoginData>>,
  Expect<Matches<typeof LogoutSchema, LogoutData>>,
  Expect<Matches<typeof OnlyUserSchema, OnlyUserData>>,
  Expect<Matches<typeof RegisteredSchema, RegisteredData>>,
  Expect<Matches<typeof RegisterLinkSentSchema, RegisterLinkSentData>>,
  Expect<Matches<typeof PasswordChanged, PasswordChangedData>>,
  Expect<Matches<typeof HasSetData, HasPasswordData>>,
  Expect<Matches<typeof RegisteredAnswer, RegisteredCheckData>>,
  Expect<Matches<typeof Device, RememberedDevice>>,
  Expect<Matches<typeof UserTokenSchema, UserTokenData>>,
  Expect<Matches<typeof AuditPage, AuditPageData>>,
  Expect<Matches<typeof WaitlistList, WaitlistListData>>,
  Expect<Matches<typeof Verified, VerifiedData>>,
  Expect<Matches<typeof IdentifierChanged, IdentifierChangedData>>,
  Expect<Matches<typeof CancelWays, CancelWaysData>>,
  Expect<Matches<typeof CancelCheck, CancelCheckData>>,
  Expect<Matches<typeof CancelRequested, CancelRequestedData>>,
  Expect<Matches<typeof CancelConfirmed, CancelConfirmedData>>,
  Expect<Matches<typeof AccountExport, AccountExportData>>,
  Expect<Same<Static<TObject<Record<never, never>>>, EmptyData>>,
  Expect<Matches<typeof UploadedImageSchema, UploadedImage>>,
  Expect<Matches<typeof Profile, ProfileData>>,
  Expect<Matches<typeof Passkey, PasskeyData>>,
  Expect<Matches<typeof PasskeyList, PasskeyListData>>,
  Expect<Matches<typeof PasskeyOptions, PasskeyOptionsData>>,
  Expect<Matches<typeof PasskeyRemoved, PasskeyRemovedData>>,
  Expect<Matches<typeof DefaultInfo, DefaultInfoData>>,
  Expect<Matches<typeof ImageList, ImageListData>>,
  Expect<Matches<typeof RecommendNames, RecommendNamesData>>,
  Expect<Matches<typeof RemainUpdateTimes, RemainUpdateTimesData>>,
  Expect<Matches<typeof ImageInfo, ImageInfoData>>,
  Expect<Matches<typeof PendingPics, PendingPicsData>>,
  Expect<Matches<typeof Linked, LinkedData>>,
  Expect<Matches<typeof OAuthProfile, OAuthProfileData>>,
  Expect<Matches<typeof ShowOauthMobile, OAuthMobileData>>,
  Expect<Matches<typeof MonitorDashboard, MonitorDashboardData>>,
  // The affiliate calls (@portico/affiliate-sdk/protocol).
  Expect<Matches<typeof SignedInAs, SwitchedAccountInfo>>,
  Expect<Matches<typeof Deleted, { deleted: true }>>,
  Expect<Matches<typeof SubjectData, Subject>>,
  Expect<Matches<typeof SubjectPage, Page<Subject>>>,
  Expect<Matches<typeof DeputyData, Deputy>>,
  Expect<Matches<typeof DeputyPage, Page<Deputy>>>,
  Expect<Matches<typeof IdentityData, LoginIdentity>>,
  Expect<Matches<typeof LoginListData, { items: LoginIdentity[] }>>,
  Expect<Matches<typeof RoleData, Role>>,
  Expect<Matches<typeof RolePage, Page<Role>>>,
  Expect<Matches<typeof ResourcePage, Page<ResourceRow>>>,
  Expect<Matches<typeof LinkPage, Page<UserRoleLink>>>,
  Expect<Matches<typeof PermissionsData, MemberPermissions>>,
  Expect<Matches<typeof ExplainData, PermissionExplanation>>,
  Expect<Matches<typeof InvitationData, Invitation>>,
  Expect<Matches<typeof InvitationPage, Page<Invitation>>>,
  Expect<Matches<typeof IssuedInvitationData, IssuedInvitation>>,
  Expect<Matches<typeof PreviewData, InvitationPreview>>,
  Expect<Matches<typeof CodeSentData, InvitationCodeSent>>,
  Expect<Matches<typeof AcceptedData, AcceptedInvitation>>,
  Expect<Matches<typeof TransferTicketSchema, TransferTicket>>,
  Expect<Matches<typeof CandidateData, NewManagerCandidate>>,
  Expect<
    Matches<
      typeof PendingData,
      { transfer: PendingTransfer | null; manager: { user_identity_id: string; deputy_name: string } | null }
    >
  >,
];

// The check can fail: a type that lost a field, or gained a required one, is not the same.
export type Guards = [
  Expect<Same<Matches<typeof AccountInfoSchema, Omit<AccountInfo, 'session'>>, false>>,
  Expect<Same<Matches<typeof SendCodeSchema, SendCodeData & { extra: string }>, false>>,
  Expect<Same<Matches<typeof TicketSchema, Omit<TicketData, 'expires_in'> & { expires_in: string }>, false>>,
];
