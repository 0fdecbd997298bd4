import { LIMITS } from '@portico/account-sdk/protocol';
import { useId, useState } from 'react';
import { readableWait } from '../codes/readable-wait';
import { useAccountText } from '../context';
import { describedBy, FieldNotes, type FieldProps, useFieldError } from './field';

export interface CodeInputProps extends FieldProps {
  /** The digits entered so far. */
  value: string;
  onChange(value: string): void;
  /** Digits of a code. Default 6. */
  length?: number;
  /**
   * Sends (or resends) a code; the button is shown only when given. `useSendCode().send` bound to the
   * target fits: `onSend={() => sender.send(mobile)}`.
   */
  onSend?: () => unknown;
  /**
   * Seconds before the next send; the button shows the countdown (in minutes from 2 minutes on) and is
   * disabled meanwhile.
   */
  cooldown?: number;
  /**
   * The last send's failure (`useSendCode().error`). While there is one, the status line does not say
   * "code sent": a cooldown after CODE_COOLDOWN is a wait for a code, not a code on its way. Its text
   * is the caller's to show (usually on the target field).
   */
  sendError?: unknown;
  /** A send is in flight: the button says so, is busy and disabled. */
  sending?: boolean;
  /** Disables only the send button (e.g. while the mobile number is incomplete). */
  sendDisabled?: boolean;
  /** The send button's label before the first send. Default "获取验证码" / "Send code". */
  sendLabel?: string;
}

/**
 * A one-time-code field: digits only, `inputMode="numeric"`, `autocomplete="one-time-code"` (so phones
 * offer the code from the SMS), with an optional send button that shows progress and the resend
 * countdown, and a polite status line ("code sent") for screen readers.
 */
export function CodeInput(props: CodeInputProps) {
  const { value, onChange, label, error, hint, name, disabled, required } = props;
  const { length = LIMITS.codeLength, onSend, cooldown = 0, sending = false, sendDisabled = false } = props;
  const t = useAccountText();
  const generated = useId();
  const id = props.id ?? generated;
  const errorMessage = useFieldError(error);
  const [asked, setAsked] = useState(false);

  let sendText = props.sendLabel ?? t('code.send');
  if (sending) sendText = t('code.sending');
  else if (cooldown > 0) {
    const wait = readableWait(cooldown);
    sendText = 'minutes' in wait ? t('code.cooldownMinutes', wait) : t('code.cooldown', wait);
  } else if (asked) sendText = t('code.resend');
  const status = sending ? t('code.sending') : cooldown > 0 && props.sendError == null ? t('code.sent') : '';

  return (
    <div className={props.className ?? 'portico-field'}>
      <label htmlFor={id}>{label ?? t('code.label')}</label>
      <div className="portico-code">
        <input
          id={id}
          name={name}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern={`[0-9]{${length}}`}
          maxLength={length}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, '').slice(0, length))}
          disabled={disabled}
          required={required}
          aria-invalid={errorMessage ? true : undefined}
          aria-describedby={describedBy(id, hint, errorMessage)}
        />
        {onSend ? (
          <button
            type="button"
            className="portico-code-send"
            disabled={disabled || sendDisabled || sending || cooldown > 0}
            aria-busy={sending || undefined}
            onClick={() => {
              setAsked(true);
              onSend();
            }}
          >
            {sendText}
          </button>
        ) : null}
      </div>
      {onSend ? (
        <p role="status" className="portico-code-status">
          {status}
        </p>
      ) : null}
      <FieldNotes id={id} hint={hint} errorMessage={errorMessage} />
    </div>
  );
}
