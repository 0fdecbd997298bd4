import { type AccountError, isAccountError } from '@portico/account-sdk';
import {
  DECISION_CONF_FIELD,
  ErrorCode,
  errorCatalogue,
  SECOND_VALID,
  SIGN_IN_ERROR_TEXTS,
} from '@portico/account-sdk/protocol';
import { type AccountLanguage, accountText } from './messages';

/**
 * The texts of the ranges a sign-in page meets. A code of another range (the account centre's, an
 * organisation's) shows the server's own `description`, rendered in the request's language, so a
 * sign-in page's first load does not carry every range's texts.
 */
const signIn = /* @__PURE__ */ errorCatalogue(SIGN_IN_ERROR_TEXTS);
const catalogueText = (code: number, language: AccountLanguage) => signIn.text(code, language);
/**
 * The user-facing text for any failure, by error CODE (never by parsing a message):
 * - a server failure: the sign-in catalogue's text for its `error_code`; a code of another range, the
 *   server's own `description` (else the generic internal-error text);
 * - no response (`network`, or `status`: an answer without an envelope): a generic network text;
 *   `timeout`: its own text;
 * - refused before sending (`invalid`, a password sign-in without an identifier): "enter your account";
 * - the person closed the challenge or the second-verification dialog, or the caller aborted: '' —
 *   closing an overlay is a choice, not an error to show;
 * - anything else (not an AccountError): a generic text. `null`/`undefined`: ''.
 */
export function errorText(error: unknown, language: AccountLanguage = 'zh'): string {
  if (error == null) return '';
  if (!isAccountError(error)) return accountText(language, 'error.unknown');
  switch (error.kind) {
    case 'aborted':
      return '';
    case 'network':
    case 'status':
      return accountText(language, 'error.network');
    case 'timeout':
      return accountText(language, 'error.timeout');
    case 'invalid':
      return catalogueText(ErrorCode.identifierRequired, language);
    case 'response':
      if (isClosedOverlay(error)) return '';
      if (signIn.entry(error.error_code) || !error.description)
        return catalogueText(error.error_code, language);
      return error.description;
  }
}

/**
 * The SDK's signals for "the person closed it": a challenge failure (it carries the decision) rejected
 * with description '', or second verification rejected with SECOND_VALID.
 */
function isClosedOverlay(error: AccountError): boolean {
  return (
    (error.error_code === ErrorCode.secondVerify && error.description === SECOND_VALID) ||
    (error.description === '' && error.data[DECISION_CONF_FIELD] != null)
  );
}
