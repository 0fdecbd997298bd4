import { createServer } from 'node:http';
import { paths } from '@portico/account-sdk/protocol';
import { freePort } from './server';

// A small service that signs its people in through the passport's SSO (apps/passport-server README,
// "SSO"): a Node http server on 127.0.0.1 with a front page (sign-in and sign-out links), a callback
// that receives the ticket and has its back end validate it, and a signed-out page. Its origin is what
// the test registers in SSO_SERVICES. 127.0.0.1 is another site than the passport's localhost, so
// the browser's hops between them are cross-site, as between a real service and its passport.

/** What the passport answered a validation (the sso envelope). */
export interface ValidateAnswer {
  error_code: number;
  description: string;
  data: { user_id?: string; screen_name?: string; mobile?: string; email?: string; error_code?: number };
}

export interface SsoService {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The service URL it sends to /sso/login and quotes to service_validate: its callback. */
  callback: string;
  /** Where its sign-out link asks the passport to return. */
  signedOut: string;
  /** The passport's origin; set once the passport runs (it is started with this service registered). */
  passport: string;
  /** Every validation its back end made, oldest first. */
  validations: { ticket: string; answer: ValidateAnswer }[];
  /** What the back end would get for a ticket now (to show that a second validation fails). */
  validate(ticket: string): Promise<ValidateAnswer>;
  stop(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

export async function startSsoService(): Promise<SsoService> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const service: SsoService = {
    origin,
    callback: `${origin}/callback`,
    signedOut: `${origin}/signed-out`,
    passport: '',
    validations: [],
    async validate(ticket) {
      if (!service.passport) throw new Error('set service.passport to the passport origin first');
      const url = new URL(paths.sso.serviceValidate, service.passport);
      url.searchParams.set('service', service.callback);
      url.searchParams.set('ticket', ticket);
      const response = await fetch(url);
      return (await response.json()) as ValidateAnswer;
    },
    stop: () => new Promise((resolve) => http.close(() => resolve())),
  };

  const http = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const send = (status: number, html: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(html);
    };
    try {
      if (url.pathname === '/callback') {
        const ticket = url.searchParams.get('ticket') ?? '';
        const answer = await service.validate(ticket);
        service.validations.push({ ticket, answer });
        if (answer.error_code !== 0) {
          return send(403, page('示例服务：登录失败', `<p>错误码 ${answer.error_code}</p>`));
        }
        const { user_id = '', screen_name = '', mobile = '' } = answer.data;
        return send(
          200,
          page(
            '示例服务：已登录',
            `<p data-user-id="${escapeHtml(user_id)}">${escapeHtml(screen_name)}（${escapeHtml(mobile)}）</p>`,
          ),
        );
      }
      if (url.pathname === '/signed-out') return send(200, page('示例服务：已退出', '<p>你已退出登录。</p>'));
      if (url.pathname === '/') {
        const login = new URL('/sso/login', service.passport);
        login.searchParams.set('service', service.callback);
        const logout = new URL('/sso/logout', service.passport);
        logout.searchParams.set('next', service.signedOut);
        return send(
          200,
          page(
            '示例服务',
            `<p><a href="${escapeHtml(login.href)}">用 Portico 账号登录</a></p><p><a href="${escapeHtml(logout.href)}">退出登录</a></p>`,
          ),
        );
      }
      return send(404, page('示例服务：找不到页面', ''));
    } catch (error) {
      send(500, page('示例服务：出错了', `<p>${escapeHtml(String(error))}</p>`));
    }
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return service;
}
