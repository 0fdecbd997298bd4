import { readableWait, useAccountLanguage } from '@portico/account-react';
import type { CodeChannel } from '@portico/account-sdk';
import type { SignInMethod } from '../routes/auth-options';
import type { OtherMethods } from './long-wait';
import { useLongWaitT } from './long-wait.messages';

/** The methods that do not wait for this channel's code, in the order offered. */
const WAYS_AROUND = {
  mobile: ['password', 'email'],
  email: ['password', 'sms'],
} as const satisfies Record<CodeChannel, readonly SignInMethod[]>;

/** 'wait.instead.password', 'wait.instead.password+email', …: one sentence per set of ways offered. */
type Instead = Extract<Parameters<ReturnType<typeof useLongWaitT>>[0], `wait.instead.${string}`>;

/**
 * What a code form shows for a long wait (`longWaitOf`): how long, in minutes from 2 minutes on, why,
 * and a button for each of the page's methods that do not wait. The text is an alert, announced when it
 * appears, as the forms' other failures are; the buttons follow it in the tab order. Loaded on demand:
 * a long wait is rare, and the sign-in page's first load stays in budget.
 */
export default function LongWaitNotice({
  channel,
  seconds,
  others,
}: {
  channel: CodeChannel;
  /** The wait, from the passport's `retry_time`. */
  seconds: number;
  others: OtherMethods | undefined;
}) {
  const t = useLongWaitT();
  const language = useAccountLanguage();
  const ways = WAYS_AROUND[channel].filter((method) => others?.methods.includes(method));
  const wait = readableWait(seconds);
  const sentences = [
    t('wait.long', { wait: 'minutes' in wait ? t('wait.minutes', wait) : t('wait.seconds', wait) }),
    t(channel === 'mobile' ? 'wait.busy.mobile' : 'wait.busy.email'),
    ways.length ? t(`wait.instead.${ways.join('+')}` as Instead) : '',
  ];
  return (
    <div className="portico-wait">
      <p role="alert">{sentences.filter(Boolean).join(language === 'en' ? ' ' : '')}</p>
      {ways.length ? (
        <p className="portico-wait-ways">
          {ways.map((method) => (
            <button
              key={method}
              type="button"
              className="button button-small"
              onClick={() => others?.select(method)}
            >
              {t(`wait.use.${method}`)}
            </button>
          ))}
        </p>
      ) : null}
    </div>
  );
}
