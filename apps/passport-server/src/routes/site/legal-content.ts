/**
 * The first published versions of the legal documents, seeded by migration 0004. Published versions are
 * never edited: a change is a new version, added by a new migration.
 */

const PUBLISHED = Date.UTC(2026, 10, 22);

const PRIVACY_ZH = `本政策说明运行 Portico 的站点（下称"本站"）如何处理你的个人信息。Portico 是开源的、由站点运营者自行部署的账号系统：你的数据保存在本站运营者的服务器上，Portico 开源项目的维护者收不到，也无法访问这些数据。

## 我们收集哪些信息

- 账号信息：你注册或绑定的手机号、邮箱地址、用户名和昵称。
- 密码：只保存经 argon2id 处理后的哈希值，任何人（包括运营者）都无法从中还原密码。
- 验证码：只保存哈希值，10 分钟内有效，用过或过期即失效。
- 会话与设备：登录会话（Cookie 中的随机令牌，服务器只保存其哈希）、登录时间、IP 地址、浏览器信息（User-Agent），以及用于识别受信任设备的设备标识的哈希值。
- 安全记录：失败的登录与验证码发送次数等计数，用于限流和人机验证，到期自动删除。

## 我们如何使用这些信息

- 让你登录、保持登录状态、找回密码。
- 向你发送验证码（短信或邮件）。
- 识别异常行为，保护你的账号不被盗用，例如在陌生设备登录时要求二次验证。

我们不出售你的信息，不用于广告，也不做与账号安全无关的画像。

## 谁能看到这些信息

- 本站运营者及其授权的管理员。
- 运营者选择的短信或邮件服务商，仅为投递验证码所需。
- 法律要求时的有权机关。

## 保存多久

账号信息保存到你注销账号为止；会话在闲置 7 天或登录 30 天后失效（运营者可调整）；验证码、限流计数等临时记录到期自动删除。

## 你的权利

你可以在工作台查看账号信息、修改密码、移除受信任的设备、退出登录。需要导出、更正或删除数据时，请联系本站运营者。

## Cookie

本站只使用登录与安全所必需的 Cookie：会话 Cookie（HttpOnly）、防跨站请求伪造的令牌和设备标识。没有广告或第三方统计 Cookie。

## 变更

本政策的每个版本都会保留并可在本页查看。重大变更会在生效前在本站提示。`;

const PRIVACY_EN = `This policy explains how the site running Portico ("this site") handles your personal information. Portico is an open-source account system that each site operator runs on their own servers: your data stays on this site's servers, and the maintainers of the Portico project neither receive nor can reach it.

## What we collect

- Account details: the mobile number, e-mail address, username and display name you register or add.
- Your password, stored only as an argon2id hash that nobody (the operator included) can turn back into the password.
- One-time codes, stored only as hashes, valid for 10 minutes and dead once used or expired.
- Sessions and devices: your sign-in session (a random token in a cookie; the server keeps only its hash), sign-in times, IP address, browser details (user agent), and a hash of the identifier that recognises your trusted devices.
- Security counters: failed sign-ins and code sends, used for rate limits and challenges and deleted when they expire.

## How we use it

- To sign you in, keep you signed in and let you reset your password.
- To send you one-time codes by SMS or e-mail.
- To spot unusual activity and protect your account, for example by asking for a second verification on an unknown device.

We do not sell your information, use it for advertising, or profile you for anything but account security.

## Who can see it

- The operator of this site and the administrators they authorise.
- The SMS or e-mail provider the operator chose, only to deliver your codes.
- Authorities, where the law requires it.

## How long we keep it

Account details until you close your account; sessions end after 7 days unused or 30 days after sign-in (the operator may change these); codes, rate-limit counters and other temporary records are deleted when they expire.

## Your rights

In the workbench you can see your account details, change your password, remove trusted devices and sign out. To export, correct or delete your data, contact the operator of this site.

## Cookies

This site uses only the cookies sign-in and security need: the session cookie (HttpOnly), the token that guards against cross-site request forgery, and the device identifier. There are no advertising or third-party analytics cookies.

## Changes

Every version of this policy is kept and can be read on this page. Significant changes are announced on this site before they take effect.`;

const TERMS_ZH = `欢迎使用运行 Portico 的站点（下称"本站"）。注册或登录即表示你同意以下条款。

## 本站与 Portico

Portico 是以 MIT 许可证发布的开源软件。本站由其运营者自行部署和管理，运营者对本站的服务和你的账号负责；Portico 开源项目的维护者不是本站的服务提供方。

## 你的账号

- 请使用你本人有权使用的手机号和邮箱注册，并保证信息真实。
- 请妥善保管密码和验证码，不要告诉任何人；本站人员不会向你索要验证码。
- 发现账号被他人使用时，请立即修改密码，并在工作台移除不认识的设备。

## 使用规则

你不得：

- 冒用他人身份，或批量注册、买卖账号；
- 用程序猜测密码或验证码、绕过人机验证、限流等安全措施；
- 干扰本站运行，或利用本站从事违法活动。

违反上述规则时，运营者可以限制或冻结相关账号。

## 服务的变化

运营者可能调整、暂停或停止本站的部分功能，并会尽量提前告知。本站按现状提供；在法律允许的范围内，运营者不对因无法使用本站造成的间接损失承担责任。

## 开源软件

本站使用的开源软件及其许可证见"开源许可声明"页面。这些许可证约束软件本身，不改变本条款。

## 条款的变更

每个版本的条款都会保留并可在本页查看。条款变更后你继续使用本站，即表示接受新版本。`;

const TERMS_EN = `Welcome to the site running Portico ("this site"). By signing up or signing in you agree to these terms.

## This site and Portico

Portico is open-source software released under the MIT licence. This site is run and managed by its operator, who is responsible for the service and for your account; the maintainers of the Portico project do not provide this site.

## Your account

- Sign up with a mobile number and e-mail address you are entitled to use, and keep your details accurate.
- Keep your password and codes to yourself; nobody from this site will ever ask you for a code.
- If someone else is using your account, change your password at once and remove devices you do not recognise in the workbench.

## Rules of use

You must not:

- pretend to be someone else, or register, buy or sell accounts in bulk;
- guess passwords or codes by program, or get around the challenge, rate limits or other safeguards;
- disrupt this site or use it for anything unlawful.

When these rules are broken, the operator may restrict or freeze the accounts involved.

## Changes to the service

The operator may change, pause or end parts of this site and will try to announce it in advance. This site is provided as it is; as far as the law allows, the operator is not liable for indirect losses caused by the site being unavailable.

## Open-source software

The open-source software this site uses, and its licences, are listed on the open-source notice page. Those licences cover the software itself and do not change these terms.

## Changes to these terms

Every version of these terms is kept and can be read on this page. Using this site after the terms change means you accept the new version.`;

export const FIRST_LEGAL_DOCUMENTS = [
  {
    kind: 'privacy-policy',
    id: '2026-11-22',
    title_zh: '隐私政策',
    title_en: 'Privacy policy',
    body_zh: PRIVACY_ZH,
    body_en: PRIVACY_EN,
    published_at: PUBLISHED,
  },
  {
    kind: 'terms-of-service',
    id: '2026-11-22',
    title_zh: '服务条款',
    title_en: 'Terms of service',
    body_zh: TERMS_ZH,
    body_en: TERMS_EN,
    published_at: PUBLISHED,
  },
] as const;
