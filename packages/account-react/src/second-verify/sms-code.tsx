import { cooldownOf, type SecondVerifyRequest } from '@portico/account-sdk';
import { useEffect, useRef, useState } from 'react';
import { useAccountText } from '../context';
import { CodeInput } from '../forms/code-input';
import { CODE_LENGTH } from './dialog-frame';
import { useCodeSend } from './dialog-shell';
import type { SecondVerifyController } from './second-verify-controller';
import { useCooldown } from './use-cooldown';

/**
 * What a second verification by SMS needs, for the first-load panel (an SMS-only account) and the
 * factor panel (loaded when an account has other ways) alike: the code and whether it is incomplete,
 * focus in on open (the code field after a wrong code or a recent send, else the send button) and back
 * where it was on close, the send with its countdown, the 6-digit check and the code field. It lives in
 * the first load, which already needs all of it; the factor panel imports it, so none of the factor
 * panel's own code comes into the first load.
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
  const codeField = useRef<HTMLInputElement | null>(null);
  const [code, setCode] = useState('');
  const [incomplete, setIncomplete] = useState(false);
  const { sending, sendError, run } = useCodeSend();
  const { seconds } = useCooldown(sendAllowedAt);

  // The panel is keyed per request, so this runs once per opened request.
  const focusField = useRef(Boolean(request.error) || sendAllowedAt > Date.now());
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const field = panel.current?.querySelector<HTMLInputElement>('input') ?? null;
    codeField.current = field;
    if (focusField.current) field?.focus();
    else panel.current?.querySelector<HTMLButtonElement>('.portico-code-send')?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);

  /** A new value typed (or the way changed, with ''): no longer marked incomplete. */
  const edit = (next: string) => {
    setCode(next);
    setIncomplete(false);
  };
  /** Submits the code (by SMS, or the channel's), or marks it incomplete and goes back to it. */
  const submit = () => {
    if (code.length !== CODE_LENGTH) {
      setIncomplete(true);
      codeField.current?.focus();
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
          codeField.current?.focus();
        })
      }
      sending={sending}
      cooldown={seconds}
      error={incomplete ? t('code.incomplete', { length: CODE_LENGTH }) : request.error}
      required
    />
  );
  // A tuple, not an object: its names cost nothing in the first load's minified code.
  return [panel, field, sendError, submit, code, edit, incomplete, setIncomplete] as const;
}
