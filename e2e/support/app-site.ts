import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A product's own app on a host of its own (docs/deploying.md, topology 2): one static page that loads
 * the built `@portico/account-sdk` (and ky) through an import map, exactly as a bundler-free app would,
 * and calls the passport at `passportOrigin`. It signs in by SMS code and shows what the SDK answered.
 */
const sdkDist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'account-sdk', 'dist');
const kyDist = join(realpathSync(join(sdkDist, '..', 'node_modules', 'ky')), 'distribution');

const page = (passportOrigin: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Acme app</title>
<script type="importmap">{"imports":{"ky":"/ky/index.js","@portico/account-sdk":"/sdk/index.js","@portico/account-sdk/protocol":"/sdk/protocol.js"}}</script>
</head>
<body>
<main>
<h1>Acme app</h1>
<label>Mobile <input id="mobile"></label>
<button id="send" type="button">Send code</button>
<label>Code <input id="code"></label>
<button id="login" type="button">Sign in</button>
<p role="status" id="status"></p>
</main>
<script type="module">
import { accountInfo, createAccountClient, isAccountError, sendMobileCode, smsLogin } from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
const client = createAccountClient({ aid: 1128, baseUrl: ${JSON.stringify(passportOrigin)}, language: 'en' });
const status = document.getElementById('status');
const mobile = () => document.getElementById('mobile').value;
const report = (error) => {
  status.textContent = isAccountError(error) ? error.error_code + ': ' + error.description : String(error);
};
document.getElementById('send').onclick = () =>
  sendMobileCode(client, { mobile: mobile(), type: CodeType.mobileLogin }).then(() => { status.textContent = 'code sent'; }, report);
document.getElementById('login').onclick = () =>
  smsLogin(client, { mobile: mobile(), code: document.getElementById('code').value })
    .then(() => accountInfo(client))
    .then((info) => { status.textContent = 'signed in as ' + info.user_id; }, report);
</script>
</body>
</html>`;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.map': 'application/json' };

export interface AppSite {
  port: number;
  close(): Promise<void>;
}

/** Serves the page at `/` and the SDK and ky files, on 127.0.0.1 and a free port. */
export async function startAppSite(passportOrigin: string): Promise<AppSite> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(passportOrigin));
      return;
    }
    const [, folder, ...rest] = path.split('/');
    const root = folder === 'sdk' ? sdkDist : folder === 'ky' ? kyDist : undefined;
    const file = root ? normalize(join(root, ...rest)) : undefined;
    if (!root || !file?.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'text/plain' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A product's page on a host of its own that only links to the passport, as a site in organisation
 * mode does (`logoutUrl`, `thirdPartyLoginUrl` with `subject_aid`): `show` sets the page's links.
 * Following one is a cross-site navigation whose Referer is the site's origin.
 */
export interface LinkSite {
  origin: string;
  show(links: Record<string, string>): void;
  close(): Promise<void>;
}

export async function startLinkSite(): Promise<LinkSite> {
  let links: Record<string, string> = {};
  const html = (text: string) =>
    text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
  const server: Server = createServer((_request, response) => {
    const items = Object.entries(links)
      .map(([label, href]) => `<li><a href="${html(href)}">${html(label)}</a></li>`)
      .join('');
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>Acme</title><h1>Acme</h1><ul>${items}</ul>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    show(next) {
      links = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
