/**
 * `@portico/account-react`: the thin React layer over `@portico/account-sdk` shared by Portico's apps —
 * a provider, TanStack Query hooks and query options for the session, every sign-in, organisations,
 * invitations, the profile and cancellation, the second-verification dialog,
 * error texts by code, and accessible form parts. No layout: apps bring their own.
 */

/** Seconds before another code may be requested when the passport does not say (its own rule is 60 s). */
export { DEFAULT_CODE_COOLDOWN } from '@portico/account-sdk';
export type { AccountInfo, SendCodeData } from './account-info';
export { AccountProvider, type AccountProviderProps } from './account-provider';
export { accountActivityQueryOptions, auditLogQueryOptions } from './audit/audit-queries';
export { readableWait } from './codes/readable-wait';
export { type UseSendCodeOptions, type UseSendCodeResult, useSendCode } from './codes/use-send-code';
export {
  type AccountT,
  useAccountClient,
  useAccountLanguage,
  useAccountText,
} from './context';
export { devicesQueryOptions, useDevices } from './devices/devices-query';
export { useForgetDevice } from './devices/use-forget-device';
export { ErrorMessage, type ErrorMessageProps } from './error-message';
export { errorText } from './error-text';
export {
  factorsQueryOptions,
  useFactors,
  useGenerateRecoveryCodes,
  useTotpConfirm,
  useTotpRemove,
  useTotpStart,
} from './factors/factors';
export { CodeInput, type CodeInputProps } from './forms/code-input';
export { EmailInput, type EmailInputProps } from './forms/email-input';
export type { FieldProps } from './forms/field';
export {
  COUNTRY_CODES,
  type CountryCode,
  filterCountries,
  loadAllRegions,
  MobileInput,
  type MobileInputProps,
  regionName,
  splitMobile,
} from './forms/mobile-input';
export { PasswordInput, type PasswordInputProps } from './forms/password-input';
export { SubmitButton, type SubmitButtonProps } from './forms/submit-button';
export {
  type IdentifierChangedData,
  useBindEmail,
  useBindMobile,
  useChangeEmail,
  useChangeMobile,
  useSetAccount,
  useVerifyIdentity,
  useVerifyPassword,
  type VerificationTicketData,
  type VerifyByCodeVariables,
  type VerifyByPasswordVariables,
} from './identifiers/use-identifiers';
export {
  type AccountLanguage,
  type AccountTextKey,
  accountMessages,
  accountText,
  toAccountLanguage,
} from './messages';
export {
  type DeveloperApp,
  type DeveloperApps,
  type DeveloperAppWithSecret,
  type DeveloperScope,
  developerAppsQueryOptions,
  type MonitoringFilters,
  monitoringDashboardQueryOptions,
  operatorQueryKeys,
  type RegisterDeveloperApp,
  useAdmitWaitlist,
  useDeleteDeveloperApp,
  useRegisterDeveloperApp,
  useRotateDeveloperSecret,
  waitlistQueryOptions,
} from './operator/operator-queries';
export { organisationQueryKeys } from './organisations/organisation-keys';
export {
  domainsQueryOptions,
  identitiesQueryOptions,
  invitationsQueryOptions,
  memberPermissionsQueryOptions,
  membersQueryOptions,
  organisationQueryOptions,
  pendingTransferQueryOptions,
  permissionCatalogueQueryOptions,
  rolesQueryOptions,
  ssoConnectionQueryOptions,
  ssoPolicyQueryOptions,
} from './organisations/organisation-queries';
export { useInvitationAcceptance, useManagerTransfer } from './organisations/use-flows';
export {
  type InviteChannel,
  type InviteVariables,
  useAddDomain,
  useAddMember,
  useAnswerMembership,
  useBanRole,
  useCancelInvitation,
  useCreateOrganisation,
  useCreateRole,
  useFreezeMember,
  useFreezeOrganisation,
  useGrantRole,
  useInvite,
  useLeaveOrganisation,
  useRemoveDomain,
  useRemoveMember,
  useRemoveSsoConnection,
  useRenameMember,
  useResendInvitation,
  useRevokeRole,
  useSaveSamlConnection,
  useSaveSsoConnection,
  useSaveSsoPolicy,
  useSecondFactorRequirement,
  useSwitchIdentity,
  useUpdateInvitation,
  useUpdateOrganisation,
  useUpdateRole,
  useVerifyDomain,
} from './organisations/use-organisation';
export {
  passkeysQueryKey,
  passkeysQueryOptions,
  usePasskeyAutofill,
  usePasskeySignIn,
  usePasskeys,
  useRegisterPasskey,
  useRemovePasskey,
  useRenamePasskey,
} from './passkeys/use-passkeys';
export { hasPasswordQueryOptions, useHasPassword } from './password/has-password-query';
export {
  useChangePassword,
  useResetPassword,
  useResetPasswordByEmail,
  useSetPassword,
  useUpdatePassword,
} from './password/use-password';
export { profileQueryKeys } from './profile/profile-keys';
export {
  cancelCheckQueryOptions,
  cancelWaysQueryOptions,
  defaultAvatarsQueryOptions,
  type PendingPicture,
  type ProfileField,
  profileDefaultsQueryOptions,
  profileQueryOptions,
  profileQuotaQueryOptions,
  recommendedNamesQueryOptions,
  reviewQueueQueryOptions,
} from './profile/profile-queries';
export {
  useAbandonCancellation,
  useConfirmCancellation,
  useExportUserData,
  useReviewPicture,
  useSaveLanguage,
  useSendCancellationCode,
  useUpdateProfile,
  useUploadAvatar,
  useUploadPicture,
  useVerifyCancellation,
} from './profile/use-profile';
export { type UseQrLoginOptions, type UseQrLoginResult, useQrLogin } from './qr/use-qr-login';
export {
  ACCOUNT_QUERY_RETRIES,
  accountRetry,
  accountRetryDelay,
  createAccountQueryClient,
  isTransientError,
  refetchOnFocusThrottled,
} from './query-client';
export { accountQueryKeys, sessionQueryKey } from './query-keys';
export { useRegister, useRegisterByEmail, useRegisterByMobile } from './register/use-register';
export {
  createSecondVerifyController,
  type SecondVerifyController,
  type SecondVerifySnapshot,
} from './second-verify/second-verify-controller';
export { SecondVerifyDialog, type SecondVerifyDialogProps } from './second-verify/second-verify-dialog';
export { useCooldown } from './second-verify/use-cooldown';
export { isSignedOutError, sessionQueryOptions, useSession } from './session/session-query';
export { useLogout } from './session/use-logout';
export { useEmailCodeLogin, usePasswordLogin, useSmsLogin } from './sign-in/use-sign-in';
export { signInChangesQueryOptions, useDisownSignInChange } from './sign-in-changes/sign-in-changes';
export {
  thirdPartyQueryOptions,
  useAuthBindLogin,
  useBindAuth,
  useMobileBindLogin,
  useOauthLogin,
  useSwitchAuthBind,
  useThirdPartyAccounts,
  useUnbindAuth,
} from './third-party/use-third-party';
export { type UseUserTokenOptions, useUserToken } from './user-token/use-user-token';
