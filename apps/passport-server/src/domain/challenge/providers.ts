import { createHmac } from 'node:crypto';
import type { CaptchaProviderConfig } from '../../config';

/**
 * Third-party challenge providers, each verified through its documented server-side API:
 *
 * - Cloudflare Turnstile: `POST …/turnstile/v0/siteverify`, form `secret`, `response`, `remoteip`,
 *   `idempotency_key`; JSON `{success, "error-codes", challenge_ts, hostname, action, cdata}`.
 * - hCaptcha: `POST https://api.hcaptcha.com/siteverify`, form `secret`, `response`, `remoteip`,
 *   `sitekey`; JSON `{success, challenge_ts, hostname, "error-codes"}`.
 * - GeeTest v4: `POST https://gcaptcha4.geetest.com/validate?captcha_id=…`, form `lot_number`,
 *   `captcha_output`, `pass_token`, `gen_time`, `sign_token` = HMAC-SHA256(lot_number, captcha key) in
 *   hex; JSON `{result: "success" | "fail", reason, captcha_args}`.
 *
 * The client's token arrives as `provider_token` (GeeTest: the JSON of its four fields, as its
 * `getValidate()` gives them). Anything but a clear yes — a refusal, a timeout, a non-JSON answer, a
 * provider that is down — is a no: the provider fails closed.
 */
export interface CaptchaProvider {
  readonly name: CaptchaProviderConfig['name'];
  readonly mode: CaptchaProviderConfig['mode'];
  verify(token: string, remoteip: string, idempotencyKey: string): Promise<boolean>;
}

export const PROVIDER_TOKEN_MAX = 4096;
const TIMEOUT_MS = 5000;

type Fetch = typeof fetch;

async function post(fetchFn: Fetch, url: string, fields: Record<string, string>): Promise<unknown> {
  const response = await fetchFn(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) return null;
  return response.json();
}

export function createCaptchaProvider(
  config: CaptchaProviderConfig,
  fetchFn: Fetch = fetch,
): CaptchaProvider {
  const { name, mode, siteKey, secret, verifyUrl } = config;
  async function ask(token: string, remoteip: string, idempotencyKey: string): Promise<boolean> {
    if (!token || token.length > PROVIDER_TOKEN_MAX) return false;
    if (name === 'geetest') {
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(token) as Record<string, unknown>;
      } catch {
        return false;
      }
      const { lot_number, captcha_output, pass_token, gen_time } = fields ?? {};
      if (![lot_number, captcha_output, pass_token, gen_time].every((v) => typeof v === 'string' && v))
        return false;
      const url = new URL(verifyUrl);
      url.searchParams.set('captcha_id', siteKey);
      const answer = (await post(fetchFn, url.toString(), {
        lot_number: lot_number as string,
        captcha_output: captcha_output as string,
        pass_token: pass_token as string,
        gen_time: gen_time as string,
        sign_token: createHmac('sha256', secret)
          .update(lot_number as string)
          .digest('hex'),
      })) as { result?: unknown } | null;
      return answer?.result === 'success';
    }
    const fields: Record<string, string> = { secret, response: token, remoteip };
    if (name === 'turnstile') fields.idempotency_key = idempotencyKey;
    else fields.sitekey = siteKey;
    const answer = (await post(fetchFn, verifyUrl, fields)) as { success?: unknown } | null;
    return answer?.success === true;
  }
  return {
    name,
    mode,
    async verify(token, remoteip, idempotencyKey) {
      try {
        return await ask(token, remoteip, idempotencyKey);
      } catch {
        return false;
      }
    },
  };
}
