// What the fixture page (support/fixture-page.ts) puts on `window`, for code run by page.evaluate.
import type * as sdk from '@portico/account-sdk';
import type * as protocol from '@portico/account-sdk/protocol';
import type * as loader from '@portico/captcha-loader';

/** A rejection reduced to plain data. */
export interface PlainError {
  name?: string;
  kind?: string;
  type?: string;
  error_code?: number;
  description?: string;
  message?: string;
  failures?: { url: string; message: string }[];
  /** The failure data as the server sent it (e.g. 2046's `sms_code_key`). */
  data?: Record<string, unknown>;
  cause?: PlainError;
}

/** What the app's `onSecondVerify` got, as the fixture page records it. */
export interface SecondVerification {
  sms_code_key: string;
  mobileMasked?: string;
  error_code: number;
  /** The path of the call that was answered with 2046. */
  path: string;
}

export type CallResult = { ok: true; data: Record<string, unknown> } | { ok: false; error: PlainError };

export type LoaderEvent =
  | { type: 'fallback'; from: string; to: string; message: string; elapsedMs: number }
  | { type: 'load'; url: string; elapsedMs: number; fallbacks: number }
  | { type: 'loadError'; error: PlainError };

declare global {
  interface Window {
    portico: { sdk: typeof sdk; protocol: typeof protocol; loader: typeof loader };
    e2e: {
      setup(options?: { language?: string }): void;
      handleSecondVerifyInApp(): void;
      secondVerifications: SecondVerification[];
      start(id: string, call: keyof typeof sdk, payload: Record<string, unknown>): void;
      result(id: string): Promise<CallResult>;
      client: sdk.AccountClient;
      captcha: loader.CaptchaLoader;
      events: LoaderEvent[];
    };
  }
}
