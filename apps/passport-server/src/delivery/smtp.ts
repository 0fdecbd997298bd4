import nodemailer from 'nodemailer';
import { DeliveryError, type MailMessage, type MailProvider } from './providers';

/** E-mail through an SMTP server (SMTP_URL), e.g. smtp://user:pass@smtp.example.com:587. */
export class SmtpMailProvider implements MailProvider {
  readonly name = 'smtp';
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // A request waits on delivery: bound the waits unless the URL sets its own.
    const withTimeouts = new URL(url);
    for (const [name, ms] of [
      ['connectionTimeout', '10000'],
      ['greetingTimeout', '10000'],
      ['socketTimeout', '15000'],
    ] as const) {
      if (!withTimeouts.searchParams.has(name)) withTimeouts.searchParams.set(name, ms);
    }
    this.transport = nodemailer.createTransport(withTimeouts.toString());
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    } catch (error) {
      // The provider's message may carry the recipient: keep it in `cause`, not in the text.
      throw new DeliveryError('the SMTP server refused the message', { cause: error });
    }
  }

  close(): void {
    this.transport.close();
  }
}
