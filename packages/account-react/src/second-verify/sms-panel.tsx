import type { SecondVerifyRequest } from '@portico/account-sdk';
import type { FormEvent } from 'react';
import { useAccountText } from '../context';
import { ErrorMessage } from '../error-message';
import { SubmitButton } from '../forms/submit-button';
import { DialogActions, DialogShell } from './dialog-shell';
import type { PanelProps } from './second-verify-controller';
import { useSmsCode } from './sms-code';

/**
 * The second-verification panel of an SMS-only account (2046 without other `methods`): the masked
 * mobile, the send button with its countdown, the 6-digit code, submit and close. A module of its own
 * with the dialog frame (Radix Dialog), loaded when a second verification first opens, so that a
 * sign-in page carries none of it.
 */
export function SmsPanel({ request, sendAllowedAt, controller }: PanelProps<SecondVerifyRequest>) {
  const t = useAccountText();
  const [panel, field, sendError, submit, , , , , initialFocus] = useSmsCode(
    request,
    sendAllowedAt,
    controller,
  );
  const close = () => controller.close();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  return (
    <DialogShell
      panel={panel}
      title={t('secondVerify.title')}
      intro={
        request.mobileMasked
          ? t('secondVerify.intro', { mobile: request.mobileMasked })
          : t('secondVerify.introNoMobile')
      }
      onClose={close}
      initialFocus={initialFocus}
    >
      <form onSubmit={onSubmit} noValidate>
        {field}
        <ErrorMessage error={sendError} />
        <DialogActions onClose={close}>
          <SubmitButton>{t('secondVerify.submit')}</SubmitButton>
        </DialogActions>
      </form>
    </DialogShell>
  );
}
