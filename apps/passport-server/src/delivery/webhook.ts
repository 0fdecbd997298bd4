import {
  type ChatMessage,
  type ChatProvider,
  DeliveryError,
  type SmsMessage,
  type SmsProvider,
} from './providers';

/**
 * SMS through an HTTP webhook (SMS_WEBHOOK_URL): a JSON POST of
 * `{to, text, template, params, language}`; any 2xx is success. `fetch` is injectable for tests.
 */
export class WebhookSmsProvider implements SmsProvider {
  readonly name: string = 'sms-webhook';
  /** What the failure messages call the peer. */
  protected readonly label: string = 'SMS';

  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly timeoutMs = 5000,
  ) {}

  async send(message: SmsMessage | ChatMessage): Promise<void> {
    let response: Response;
    try {
      response = await this.fetchImpl(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new DeliveryError(`the ${this.label} webhook did not answer`, { cause: error });
    }
    await response.body?.cancel();
    if (!response.ok) throw new DeliveryError(`the ${this.label} webhook answered HTTP ${response.status}`);
  }
}

/**
 * Workplace-chat messages through an HTTP webhook (CHAT_WEBHOOK_URL), delivered as the SMS webhook is:
 * a JSON POST of `{to, text, template, params, language, link}`, any 2xx is success.
 */
export class WebhookChatProvider extends WebhookSmsProvider implements ChatProvider {
  override readonly name = 'chat-webhook';
  protected override readonly label = 'chat';
}
