import { Link } from 'react-router';
import { useLanguage } from '../i18n/language';

interface Section {
  title: string;
  intro?: string;
  items: { term: string; text: string }[];
}

const TEXT: Record<
  'zh' | 'en',
  { title: string; lead: string; sections: Section[]; cta: string; ctaLink: string }
> = {
  zh: {
    title: 'Portico 是什么',
    lead: 'Portico 是一套为 TypeScript 产品准备的开源账号登录与组织身份系统。它由三部分组成：你部署的通行证服务（passport server）、前端安装的账号 SDK，以及基于它们的 React 应用。你现在看到的网站就是其中的 web 应用。',
    sections: [
      {
        title: '包含什么',
        items: [
          {
            term: '通行证服务',
            text: 'Fastify 服务，提供 SDK 调用的全部接口：验证码、登录、注册、密码、会话、设备、人机验证。默认使用 SQLite 和开发信箱，一条命令启动。',
          },
          {
            term: '@portico/account-sdk',
            text: '框架无关的账号客户端：每个接口一个带类型的函数，错误带稳定的错误码，验证码挑战与二次验证通过钩子接入。',
          },
          {
            term: '@portico/account-react',
            text: 'React 层：TanStack Query 钩子、二次验证对话框和可访问的表单组件（手机号、验证码、密码）。',
          },
          {
            term: '@portico/captcha-loader',
            text: '人机验证脚本加载器：带超时、备用地址和可重试的加载状态。',
          },
        ],
      },
      {
        title: '一次登录是怎样完成的',
        items: [
          {
            term: '1. 发送验证码',
            text: '验证码 6 位、10 分钟有效，绑定用途和接收人：登录用的验证码不能用来注册。同一号码 60 秒内只能发送一次。',
          },
          {
            term: '2. 风险判断',
            text: '失败或发送过于频繁时，服务要求完成人机验证（滑块、文字、3D 或旋转），通过后 SDK 自动重发原请求。',
          },
          {
            term: '3. 新设备二次验证',
            text: '用密码或邮箱验证码在陌生设备上登录时，需要再输入一次短信验证码；通过后该设备被记住。',
          },
          {
            term: '4. 会话',
            text: '登录后得到一个随机的 HttpOnly 会话 Cookie，每次登录都会轮换；修改或重置密码会结束其他会话。',
          },
        ],
      },
      {
        title: '默认就安全',
        items: [
          {
            term: '密码',
            text: 'argon2id 哈希；至少 8 个字符，拒绝最常见的一万个密码；未知账号和错误密码的回答无法区分。',
          },
          {
            term: 'CSRF 与跳转',
            text: 'CSRF 令牌绑定会话并校验来源；登录后的跳转只接受本站相对路径或白名单中的地址。',
          },
          { term: '限流', text: '按号码、IP（IPv6 按 /64）和设备计数；对攻击者不会造成永久锁定。' },
        ],
      },
      {
        title: '在哪里运行',
        items: [
          { term: '一台机器', text: '默认 SQLite 文件和开发信箱，无需安装任何其他服务。' },
          {
            term: '多台机器',
            text: '设置 DATABASE_URL 使用 PostgreSQL，设置 REDIS_URL 共享计数器；服务本身不保存内存状态，可以水平扩展。',
          },
          {
            term: '真实投递',
            text: '设置 SMTP_URL 发送邮件，设置 SMS_WEBHOOK_URL 通过你的短信网关发送短信。',
          },
        ],
      },
    ],
    cta: '下一步：把 Portico 接入你的产品',
    ctaLink: '/extension',
  },
  en: {
    title: 'What Portico is',
    lead: 'Portico is an open-source account sign-in and organisation identity system for TypeScript products. It has three parts: the passport server you run, the account SDK your front end installs, and the React apps built on them. The site you are looking at is the web app.',
    sections: [
      {
        title: 'What is in the box',
        items: [
          {
            term: 'Passport server',
            text: 'A Fastify server with every endpoint the SDK calls: codes, sign-in, registration, passwords, sessions, devices, challenges. It starts with one command on SQLite and a development outbox.',
          },
          {
            term: '@portico/account-sdk',
            text: 'A framework-free account client: one typed function per call, errors with stable codes, and hooks that plug in challenges and second verification.',
          },
          {
            term: '@portico/account-react',
            text: 'The React layer: TanStack Query hooks, the second-verification dialog and accessible form parts (mobile, code, password).',
          },
          {
            term: '@portico/captcha-loader',
            text: 'Loads the challenge script with timeouts, backup addresses and a retryable loading state.',
          },
        ],
      },
      {
        title: 'How a sign-in works',
        items: [
          {
            term: '1. A code is sent',
            text: 'Six digits, valid for 10 minutes, bound to its purpose and recipient: a sign-in code never registers an account. One send per number every 60 seconds.',
          },
          {
            term: '2. Risk is judged',
            text: 'After failures or bursts of sends the server asks for a challenge (slide, text, 3D or whirl); once it is solved the SDK resends the original request by itself.',
          },
          {
            term: '3. New devices verify',
            text: 'A password or e-mail-code sign-in on an unknown device asks for an SMS code as well; afterwards the device is remembered.',
          },
          {
            term: '4. The session',
            text: 'A random HttpOnly session cookie, rotated on every sign-in; changing or resetting the password ends the other sessions.',
          },
        ],
      },
      {
        title: 'Secure by default',
        items: [
          {
            term: 'Passwords',
            text: 'Hashed with argon2id; at least 8 characters, the 10,000 most common refused; an unknown account answers exactly like a wrong password.',
          },
          {
            term: 'CSRF and redirects',
            text: 'CSRF tokens are bound to the session and the origin is checked; after sign-in the browser only goes to same-site paths or allow-listed origins.',
          },
          {
            term: 'Rate limits',
            text: 'Counted per number, per address (IPv6 by /64) and per device; an attacker can never lock an account for good.',
          },
        ],
      },
      {
        title: 'Where it runs',
        items: [
          {
            term: 'One machine',
            text: 'An SQLite file and the development outbox by default: nothing else to install.',
          },
          {
            term: 'Many machines',
            text: 'Set DATABASE_URL for PostgreSQL and REDIS_URL for shared counters; the server keeps no state in memory, so it scales out.',
          },
          {
            term: 'Real delivery',
            text: 'Set SMTP_URL to send e-mail and SMS_WEBHOOK_URL to send SMS through your own gateway.',
          },
        ],
      },
    ],
    cta: 'Next: integrate Portico into your product',
    ctaLink: '/extension',
  },
};

export function Component() {
  const text = TEXT[useLanguage()];
  return (
    <div className="container content-page">
      <header className="page-header">
        <h1>{text.title}</h1>
        <p className="lead">{text.lead}</p>
      </header>
      {text.sections.map((section) => (
        <section key={section.title} className="content-section">
          <h2>{section.title}</h2>
          <dl className="feature-list">
            {section.items.map((item) => (
              <div key={item.term} className="feature">
                <dt>{item.term}</dt>
                <dd>{item.text}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <p className="next-step">
        <Link to={text.ctaLink} className="button button-primary">
          {text.cta} <span aria-hidden="true">→</span>
        </Link>
      </p>
    </div>
  );
}
