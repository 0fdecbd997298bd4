import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

/**
 * A WeChat-shaped website sign-in server on loopback (open.weixin.qq.com's qrconnect,
 * api.weixin.qq.com's sns/oauth2/access_token and sns/userinfo), through WECHAT_BASE_URL and
 * WECHAT_API_URL, as WeChat's documentation describes them: the app's appid and secret as query
 * parameters of GET requests, a refusal as a 200 with errcode and errmsg, codes used once.
 *
 * The qrconnect page shows a QR code (its image at `/connect/qrcode/<uuid>`, as WeChat's) and
 * long-polls `/connect/l/qrconnect?uuid=` for what the phone did: `408` waiting, `405` confirmed
 * (with the code: the page goes to `redirect_uri?code=…&state=…`), `403` refused (the page goes to
 * `redirect_uri?state=…` alone, WeChat's documented answer to a refusal). The phone is the test:
 * `confirm` or `refuse` the code a page shows; `scan` does both steps at once without a browser.
 */

export interface WeChatUser {
  openid: string;
  nickname: string;
  headimgurl: string;
  /** Present when the app belongs to a WeChat Open Platform account. */
  unionid?: string;
}

export interface WeChatPeer {
  baseUrl: string;
  apiUrl: string;
  /** People by openid. */
  users: Map<string, WeChatUser>;
  /** Scans the qrconnect page's code as `openid` and confirms on the phone: answers the callback URL. */
  scan(qrconnectUrl: string, openid: string): Promise<URL>;
  /** The phone scans the QR code `uuid` a browser shows and confirms the sign-in as `openid`. */
  confirm(uuid: string, openid: string): void;
  /** The phone scans the QR code `uuid` and refuses the sign-in. */
  refuse(uuid: string): void;
  /** How many API calls were refused (a replayed code, a wrong secret, a stale token). */
  refused: () => number;
  close(): Promise<void>;
}

/** What the phone did with a QR code, as the long-poll reports it (`wx_errcode`). */
type ScanState = { errcode: 408 } | { errcode: 405; code: string } | { errcode: 403 };

/** A QR code a browser shows: where to send it back (its state in it), and the waiters of its long-poll. */
interface Shown {
  redirectUri: string;
  scan: ScanState;
  waiters: Set<() => void>;
}

/** How long a long-poll is held before it answers `408` (still waiting) and the page asks again. */
const LONG_POLL_MS = 25_000;

/** The qrconnect page: the code and a script that follows the phone's answer, as WeChat's page does. */
const qrPage = (uuid: string) => `<!doctype html>
<html lang="zh-CN">
<head><meta charset="utf-8"><title>微信登录</title></head>
<body>
<main>
<h1>微信登录</h1>
<img alt="微信登录二维码" width="280" height="280" src="/connect/qrcode/${uuid}">
<p role="status" id="status">请使用微信扫描二维码登录</p>
</main>
<script>
(async () => {
  for (;;) {
    const text = await fetch('/connect/l/qrconnect?uuid=${uuid}').then((r) => (r.ok ? r.text() : ''), () => '');
    // A dropped or refused poll is asked again after a pause, as WeChat's page does: not given up.
    if (!text) {
      await new Promise((resume) => setTimeout(resume, 1000));
      continue;
    }
    const errcode = Number(/wx_errcode=(\\d+)/.exec(text)?.[1]);
    if (errcode !== 405 && errcode !== 403) continue;
    const back = new URL(decodeURIComponent(/wx_redirect='([^']*)'/.exec(text)?.[1] ?? ''));
    if (errcode === 405) back.searchParams.set('code', /wx_code='([^']*)'/.exec(text)?.[1] ?? '');
    location.href = back.href;
    return;
  }
})();
</script>
</body>
</html>`;

/** The code's picture: finder squares only (the test's phone reads the uuid from its address, not the pixels). */
const QR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="280" height="280"><rect width="280" height="280" fill="#fff"/><rect x="20" y="20" width="80" height="80"/><rect x="180" y="20" width="80" height="80"/><rect x="20" y="180" width="80" height="80"/></svg>';

export async function startWeChatPeer(options: { appId: string; appSecret: string }): Promise<WeChatPeer> {
  const users = new Map<string, WeChatUser>();
  const codes = new Map<string, { openid: string; used: boolean }>();
  const tokens = new Map<string, string>();
  const shown = new Map<string, Shown>();
  let refused = 0;
  const app = Fastify();
  const fail = (errcode: number, errmsg: string) => {
    refused += 1;
    return { errcode, errmsg };
  };
  const mint = (openid: string) => {
    const code = randomBytes(12).toString('hex');
    codes.set(code, { openid, used: false });
    return code;
  };
  const answer = (uuid: string, scan: ScanState) => {
    const entry = shown.get(uuid);
    if (!entry) throw new Error(`the WeChat peer shows no QR code ${uuid}`);
    entry.scan = scan;
    for (const wake of entry.waiters) wake();
    entry.waiters.clear();
  };

  app.get('/connect/qrconnect', async (request, reply) => {
    const q = request.query as Record<string, string>;
    const openid = String(request.headers['x-scanned-by'] ?? '');
    if (
      q.appid !== options.appId ||
      q.response_type !== 'code' ||
      q.scope !== 'snsapi_login' ||
      !q.redirect_uri
    )
      return reply.code(400).send('参数错误');
    const target = new URL(q.redirect_uri);
    if (q.state) target.searchParams.set('state', q.state);
    // Scanned and confirmed already (a test without a browser): straight back with the code.
    if (users.has(openid)) {
      target.searchParams.set('code', mint(openid));
      return reply.redirect(target.href, 302);
    }
    const uuid = randomBytes(8).toString('hex');
    shown.set(uuid, { redirectUri: target.href, scan: { errcode: 408 }, waiters: new Set() });
    return reply.type('text/html; charset=utf-8').send(qrPage(uuid));
  });

  app.get('/connect/qrcode/:uuid', async (_request, reply) => reply.type('image/svg+xml').send(QR_SVG));

  app.get('/connect/l/qrconnect', async (request, reply) => {
    const uuid = String((request.query as Record<string, string>).uuid ?? '');
    const entry = shown.get(uuid);
    if (!entry) return reply.code(404).send('window.wx_errcode=402;');
    if (entry.scan.errcode === 408)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, LONG_POLL_MS);
        entry.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    const { scan } = entry;
    const code = scan.errcode === 405 ? scan.code : '';
    reply.type('text/javascript');
    return `window.wx_errcode=${scan.errcode};window.wx_code='${code}';window.wx_redirect='${encodeURIComponent(entry.redirectUri)}';`;
  });

  app.get('/sns/oauth2/access_token', async (request) => {
    const q = request.query as Record<string, string>;
    if (q.appid !== options.appId || q.secret !== options.appSecret) return fail(40125, 'invalid appsecret');
    if (q.grant_type !== 'authorization_code') return fail(40002, 'invalid grant_type');
    const entry = codes.get(q.code ?? '');
    if (!entry || entry.used) return fail(40029, 'invalid code');
    entry.used = true;
    const token = randomBytes(16).toString('hex');
    tokens.set(token, entry.openid);
    const user = users.get(entry.openid);
    return {
      access_token: token,
      expires_in: 7200,
      refresh_token: randomBytes(16).toString('hex'),
      openid: entry.openid,
      scope: 'snsapi_login',
      ...(user?.unionid ? { unionid: user.unionid } : {}),
    };
  });

  app.get('/sns/userinfo', async (request) => {
    const q = request.query as Record<string, string>;
    const openid = tokens.get(q.access_token ?? '');
    if (!openid || openid !== q.openid) return fail(40001, 'invalid credential, access_token is invalid');
    const user = users.get(openid);
    if (!user) return fail(40003, 'invalid openid');
    return {
      openid,
      nickname: user.nickname,
      sex: 0,
      province: '',
      city: '',
      country: '',
      headimgurl: user.headimgurl,
      privilege: [],
      ...(user.unionid ? { unionid: user.unionid } : {}),
    };
  });

  // Pages still polling answer at once, so closing does not wait out their long-polls.
  app.addHook('preClose', async () => {
    for (const entry of shown.values()) for (const wake of entry.waiters) wake();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    apiUrl: baseUrl,
    users,
    async scan(qrconnectUrl, openid) {
      const response = await fetch(qrconnectUrl, { redirect: 'manual', headers: { 'x-scanned-by': openid } });
      const location = response.headers.get('location');
      if (!location) throw new Error(`WeChat peer answered ${response.status}`);
      return new URL(location);
    },
    confirm(uuid, openid) {
      if (!users.has(openid)) throw new Error(`the WeChat peer knows no ${openid}`);
      answer(uuid, { errcode: 405, code: mint(openid) });
    },
    refuse(uuid) {
      answer(uuid, { errcode: 403 });
    },
    refused: () => refused,
    close: () => app.close(),
  };
}
