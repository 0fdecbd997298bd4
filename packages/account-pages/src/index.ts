/**
 * `@portico/account-pages` (private): the screens every Portico app shares — sign-in with its method
 * tabs, sign-up and password reset in the auth shell, the account centre (security, profile,
 * cancellation, recent security activity, the workbench's sections), the organisation console (with
 * its audit log), the developer console and the operator's monitoring screen — and `createAuthRoutes()` to mount them. An app owns
 * only its route table, layout, copy and redirect policy, and imports a screen from its lazily loaded
 * route module, so each screen's code (and the dialog it confirms with) loads with its page only.
 */
export { useAccountCentreT } from './account-centre/account-centre.messages';
export { CancelPendingBanner } from './account-centre/cancel-banner';
export { CancelScreen, type CancelScreenProps } from './account-centre/cancel-screen';
export { ProfileScreen, type ProfileScreenProps } from './account-centre/profile-screen';
export {
  AccountSummary,
  SignInMethods,
  SignOutCard,
  TrustedDevices,
} from './account-centre/workbench-sections';
export { useAdminT } from './admin/admin.messages';
export { AdminConsole } from './admin/admin-console';
export { lazyCaptcha } from './app/lazy-captcha';
export {
  reportFunnel,
  type StartMonitoringOptions,
  startMonitoring,
} from './app/monitoring';
export { type MountAppOptions, mountApp } from './app/mount-app';
export { PAGE_REQUEST_TIMEOUT_MS } from './app/request-timeout';
export { AuditLog } from './audit/audit-log';
export { RecentActivity } from './audit/recent-activity';
export { SignInChanges, type SignInChangesProps } from './audit/sign-in-changes';
export { useDeveloperT } from './developer/developer.messages';
export { DeveloperConsole } from './developer/developer-console';
export { CodeLoginForm } from './forms/code-login-form';
export { CodePasswordForm, type CodePasswordValues } from './forms/code-password-form';
export type { OtherMethods } from './forms/long-wait';
export {
  type NewPassword,
  NewPasswordFields,
  otherThanPasswordRefusal,
  useNewPassword,
} from './forms/new-password-fields';
export { PasswordLoginForm } from './forms/password-login-form';
export { isCode, isEmail, isMobile, MIN_PASSWORD } from './forms/validate';
export { type AuthT, authText, useAuthT } from './i18n/auth-messages';
export { defineMessages, format, type Language, type Translate } from './i18n/define';
export {
  createLanguageStore,
  type LanguageStore,
  type LanguageStoreOptions,
  useLanguageStore,
} from './i18n/language-store';
export { nextOrFallback } from './next/after-sign-in';
export { loginHref, safeNext } from './next/safe-next';
export { useMonitoringT } from './operator/monitoring.messages';
export { MonitoringScreen } from './operator/monitoring-screen';
export { useOrgT } from './organisations/organisation.messages';
export { OrganisationConsole } from './organisations/organisation-console';
export { PasskeysSection } from './passkeys/passkeys-section';
export { type QrConfirmResult, QrConfirmScreen } from './qr/qr-confirm-screen';
export type {
  AfterSignInContext,
  AuthDestination,
  AuthRoutesOptions,
  Copy,
  CopyContext,
  ScreenCopy,
  SignInMethod,
} from './routes/auth-options';
export { createAuthRoutes } from './routes/create-auth-routes';
export { AccountSecurity, useSecurityT } from './screens/account-security';
export { AuthorizedApps, useAuthorizedAppsT } from './screens/authorized-apps';
export { IdentityPicker, type IdentityPickerProps } from './screens/identity-picker';
export { InvitationScreen, type InvitationScreenProps } from './screens/invitation';
export { AuthShell } from './shell/auth-shell';
export { LinkedAccounts } from './third-party/linked-accounts';
export { useThirdPartyT } from './third-party/messages';
export { PROVIDER_NAMES, providerName } from './third-party/providers';
export { startThirdParty, type ThirdPartyAction } from './third-party/start';
export {
  Button,
  type ButtonProps,
  type ButtonSize,
  type ButtonVariant,
  buttonClass,
} from './ui/button';
export { ConfirmButton, type ConfirmButtonProps } from './ui/confirm-button';
export { EmptyState } from './ui/empty-state';
export { Interpolate } from './ui/interpolate';
export { LanguageSwitch } from './ui/language-switch';
export { TableScroll } from './ui/table-scroll';
export { type TabItem, Tabs } from './ui/tabs';
