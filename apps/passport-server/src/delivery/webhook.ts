import { DeliveryError, type SmsMessage, type SmsProvider } from './providers';

/**
 * SMS through an HTTP webhook (SMS_WEBHOOK_URL): a JSON POST of
 * `{to, text, template, params, language}`; any 2xx is success. `fetch` is injectable for tests.
 */
export class WebhookSmsProvider implements SmsProvider {
  readonly name = 'sms-webhook';

  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly timeoutMs = 5000,
  ) {}

  async send(message: SmsMessage): Promise<void> {
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
      throw new DeliveryError('the SMS webhook did not answer', { cause: error });
    }
    await response.body?.cancel();
    if (!response.ok) throw new DeliveryError(`the SMS webhook answered HTTP ${response.status}`);
  }
}
