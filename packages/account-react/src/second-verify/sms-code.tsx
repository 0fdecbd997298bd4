import { cooldownOf, type SecondVerifyRequest } from '@portico/account-sdk';
import { useRef, useState } from 'react';
import { useAccountText } from '../context';
import { CodeInput } from '../forms/code-input';
import { CODE_LENGTH } from './dialog-frame';
import { useCodeSend } from './dialog-shell';
import type { SecondVerifyController } from './second-verify-controller';
import { useCooldown } from './use-cooldown';

/** The code field of CodeInput (a factor panel's way picker has inputs of its own before it). */
const CODE_FIELD = 'input[autocomplete="one-time-code"]';

/**
 * What a second verification by SMS needs, for the SMS panel (an SMS-only account) and the factor panel
 * (an account with other ways) alike: the code and whether it is incomplete, what gets focus when the
 * dialog opens (the code field after a wrong code or a recent send, else the send button), the send
 * with its countdown, the 6-digit check and the code field.
 */
export function useSmsCode(
  request: SecondVerifyRequest,
  sendAllowedAt: number,
  controller: SecondVerifyController,
  /** The factor panel's e-mail way sends and checks the same 6-digit code by e-mail. */
  channel?: 'email',
) {
  const t = useAccountText();
  const panel = useRef<HTMLDivElement>(null);
  const [code, setCode] = useState('');
  const [incomplete, setIncomplete] = useState(false);
  const { sending, sendError, run } = useCodeSend();
  const { seconds } = useCooldown(sendAllowedAt);

  // The panel is keyed per request, so this is decided once per opened request: the code field after
  // a wrong code or a recent send, else the send button.
  const focusField = useRef(Boolean(request.error) || sendAllowedAt > Date.now());
  const codeField = () => panel.current?.querySelector<HTMLInputElement>(CODE_FIELD);
  const initialFocus = (root: HTMLElement) =>
    focusField.current
      ? root.querySelector<HTMLElement>(CODE_FIELD)
      : root.querySelector<HTMLElement>('.portico-code-send');

  /** A new value typed (or the way changed, with ''): no longer marked incomplete. */
  const edit = (next: string) => {
    setCode(next);
    setIncomplete(false);
  };
  /** Submits the code (by SMS, or the channel's), or marks it incomplete and goes back to it. */
  const submit = () => {
    if (code.length !== CODE_LENGTH) {
      setIncomplete(true);
      codeField()?.focus();
      return;
    }
    controller.submit(code, channel);
  };
  const field = (
    <CodeInput
      value={code}
      onChange={edit}
      length={CODE_LENGTH}
      onSend={() =>
        run(async () => {
          controller.markSent(cooldownOf(await request.sendCode(channel)));
          codeField()?.focus();
        })
      }
      sending={sending}
      cooldown={seconds}
      error={incomplete ? t('code.incomplete', { length: CODE_LENGTH }) : request.error}
      required
    />
  );
  return [panel, field, sendError, submit, code, edit, incomplete, setIncomplete, initialFocus] as const;
}
