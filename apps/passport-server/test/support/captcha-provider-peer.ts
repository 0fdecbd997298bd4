import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Cloudflare Turnstile, hCaptcha and GeeTest v4 on loopback, each speaking its documented shapes: the
 * server-side checks (Turnstile's and hCaptcha's siteverify, GeeTest's validate) and, for the browser,
 * Turnstile's and hCaptcha's widget scripts implementing their documented `render` API (explicit
 * rendering: `render(container, {sitekey, callback, 'error-callback', …})` returns a widget id;
 * `reset(id)`, `remove(id)`). The widget is a button that hands the callback `widgetToken`; the checks
 * accept exactly `GOOD` with the right secret. Shared by the server's tests and the browser tests.
 */

export const GOOD = 'XXXX.DUMMY.TOKEN.GOOD';
export const GEETEST_KEY = 'geetest-captcha-key';
export const SECRETS = { turnstile: 'turnstile-secret', hcaptcha: 'hcaptcha-secret' };
export const PEER_PATHS = {
  turnstileVerify: '/turnstile/v0/siteverify',
  turnstileScript: '/turnstile/v0/api.js',
  hcaptchaVerify: '/siteverify',
  hcaptchaScript: '/1/api.js',
  geetestVerify: '/validate',
};

export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
}

export interface CaptchaProviderPeer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every check the peer was asked for, in order (widget scripts are not counted). */
  readonly seen: SeenRequest[];
  /** While true every check answers 503, as a provider that is down. */
  down: boolean;
  /** What the widget hands its callback (read when the script is served). Default `GOOD`. */
  widgetToken: string;
  close(): Promise<void>;
}

/** The widget script: `window[global]` with the documented explicit-render API over one button. */
function widgetScript(global: 'turnstile' | 'hcaptcha', token: string): string {
  return `(() => {
  const widgets = new Map();
  let count = 0;
  window.${global} = {
    render(container, params) {
      const host = typeof container === 'string' ? document.querySelector(container) : container;
      const id = '${global}-' + ++count;
      const language = String(params.${global === 'turnstile' ? 'language' : 'hl'} || 'en');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.peerWidget = ${JSON.stringify(global)};
      button.dataset.sitekey = params.sitekey;
      button.dataset.language = language;
      button.textContent = language.startsWith('zh') ? '确认您是真人' : 'Verify you are human';
      button.addEventListener('click', () => {
        button.disabled = true;
        params.callback(${JSON.stringify(token)});
      });
      host.append(button);
      widgets.set(id, button);
      return id;
    },
    reset(id) {
      const button = widgets.get(id);
      if (button) button.disabled = false;
    },
    remove(id) {
      widgets.get(id)?.remove();
      widgets.delete(id);
    },
  };
})();
`;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

export async function startCaptchaProviderPeer(): Promise<CaptchaProviderPeer> {
  const peer = {
    origin: '',
    seen: [] as SeenRequest[],
    down: false,
    widgetToken: GOOD,
    close: async () => {},
  };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://loopback');
    if (
      request.method === 'GET' &&
      (url.pathname === PEER_PATHS.turnstileScript || url.pathname === PEER_PATHS.hcaptchaScript)
    ) {
      const global = url.pathname === PEER_PATHS.turnstileScript ? 'turnstile' : 'hcaptcha';
      response.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-store',
      });
      response.end(widgetScript(global, peer.widgetToken));
      return;
    }
    const form = new URLSearchParams(await bodyOf(request));
    peer.seen.push({ path: url.pathname, query: url.searchParams, form });
    if (peer.down) {
      response.writeHead(503).end('unavailable');
      return;
    }
    response.setHeader('content-type', 'application/json');
    if (url.pathname === PEER_PATHS.turnstileVerify) {
      const ok = form.get('secret') === SECRETS.turnstile && form.get('response') === GOOD;
      response.end(
        JSON.stringify(
          ok
            ? {
                success: true,
                'error-codes': [],
                challenge_ts: new Date().toISOString(),
                hostname: 'localhost',
              }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    } else if (url.pathname === PEER_PATHS.hcaptchaVerify) {
      const ok = form.get('secret') === SECRETS.hcaptcha && form.get('response') === GOOD;
      response.end(
        JSON.stringify(
          ok
            ? { success: true, hostname: 'localhost' }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    } else if (url.pathname === PEER_PATHS.geetestVerify) {
      const lot = form.get('lot_number') ?? '';
      const signed = createHmac('sha256', GEETEST_KEY).update(lot).digest('hex');
      const ok = form.get('sign_token') === signed && form.get('pass_token') === GOOD;
      response.end(
        JSON.stringify(
          ok
            ? { result: 'success', reason: '', captcha_args: {} }
            : { result: 'fail', reason: 'pass_token expire' },
        ),
      );
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return peer;
}
