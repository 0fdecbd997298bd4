/** A text message to one mobile number (E.164). */
export interface SmsMessage {
  to: string;
  text: string;
  /** The template and its parameters, for providers that send by template id. */
  template: string;
  params: Record<string, string>;
  language: 'zh' | 'en';
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  language: 'zh' | 'en';
}

/** A message to one person in the workplace chat (their chat user id), with the link on its own. */
export interface ChatMessage {
  to: string;
  text: string;
  template: string;
  params: Record<string, string>;
  language: 'zh' | 'en';
  link: string;
}

export interface ChatProvider {
  readonly name: string;
  send(message: ChatMessage): Promise<void>;
}

export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}

export interface MailProvider {
  readonly name: string;
  send(message: MailMessage): Promise<void>;
}

/** A provider could not take the message; the caller answers DELIVERY_FAILED and charges no cooldown. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

/** A channel with no provider configured (a real provider is set for the other channel). */
export class UnconfiguredProvider implements SmsProvider, MailProvider, ChatProvider {
  constructor(readonly name: string) {}
  async send(): Promise<void> {
    throw new DeliveryError(`no ${this.name} provider is configured`);
  }
}
