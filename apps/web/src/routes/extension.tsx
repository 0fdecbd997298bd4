import { CopyCode } from '../components/copy-code';
import {
  INSTALL,
  INSTALL_REACT,
  REACT_SIGN_IN,
  RUN_SERVER,
  SDK_SIGN_IN,
  USER_TOKEN,
  VERIFY_TOKEN,
} from '../content/samples';
import { useLanguage } from '../i18n/language';

interface Step {
  title: string;
  text: string;
  samples: { label: string; code: string }[];
}

const TEXT: Record<
  'zh' | 'en',
  { title: string; lead: string; steps: Step[]; notes: { title: string; items: string[] } }
> = {
  zh: {
    title: '把 Portico 接入你的产品',
    lead: '四步：部署通行证服务，在前端安装 SDK，让用户登录，然后在你的后端确认用户是谁。下面的代码可以直接复制。',
    steps: [
      {
        title: '1. 部署通行证服务',
        text: '服务同时提供 API 和这个网站。默认使用 SQLite 和开发信箱（验证码会出现在 /dev/outbox）；生产环境请设置 PUBLIC_ORIGIN、数据库和投递方式。',
        samples: [{ label: 'Shell', code: RUN_SERVER }],
      },
      {
        title: '2. 安装 SDK',
        text: '框架无关的 SDK 适用于任何前端；React 项目可以再装 account-react，直接使用钩子和表单组件。',
        samples: [
          { label: 'SDK', code: INSTALL },
          { label: 'React', code: INSTALL_REACT },
        ],
      },
      {
        title: '3. 让用户登录',
        text: '每个接口都是一个函数。失败时按 error_code 判断原因并显示对应文案，不要解析错误消息。',
        samples: [
          { label: 'TypeScript', code: SDK_SIGN_IN },
          { label: 'React', code: REACT_SIGN_IN },
        ],
      },
      {
        title: '4. 在后端确认用户',
        text: '登录后，前端向通行证换取一个短期的用户令牌（JWT），随请求发给你的 API；你的后端用公开的 JWKS 验证签名，sub 就是用户 ID。',
        samples: [
          { label: '浏览器', code: USER_TOKEN },
          { label: 'Node.js 后端', code: VERIFY_TOKEN },
        ],
      },
    ],
    notes: {
      title: '接入前请确认',
      items: [
        '前端和通行证不同源时，把前端的源加入 ALLOWED_ORIGINS，否则跨站请求会被 CSRF 检查拒绝。',
        '安装 captcha-loader 并传给 AccountProvider（或 client.use(challengePlugin(…))），否则需要人机验证的请求会直接失败。',
        'next、redirect_uri 只接受本站相对路径或白名单地址，其他值会被替换为默认值。',
        '完整的接口说明见本服务的 /docs（OpenAPI）。',
      ],
    },
  },
  en: {
    title: 'Integrate Portico into your product',
    lead: 'Four steps: run the passport server, install the SDK in your front end, sign people in, then let your back end know who they are. Every sample below can be copied as it is.',
    steps: [
      {
        title: '1. Run the passport server',
        text: 'It serves the API and this site. By default it uses SQLite and the development outbox (codes land at /dev/outbox); in production set PUBLIC_ORIGIN, a database and real delivery.',
        samples: [{ label: 'Shell', code: RUN_SERVER }],
      },
      {
        title: '2. Install the SDK',
        text: 'The framework-free SDK fits any front end; React projects add account-react for hooks and ready form parts.',
        samples: [
          { label: 'SDK', code: INSTALL },
          { label: 'React', code: INSTALL_REACT },
        ],
      },
      {
        title: '3. Sign people in',
        text: 'Every call is a function. When one fails, decide by error_code and show the matching text; never parse the message.',
        samples: [
          { label: 'TypeScript', code: SDK_SIGN_IN },
          { label: 'React', code: REACT_SIGN_IN },
        ],
      },
      {
        title: '4. Know the user in your back end',
        text: 'Once signed in, the front end exchanges its session for a short-lived user token (a JWT) and sends it to your API; your back end checks it against the public JWKS, and sub is the user id.',
        samples: [
          { label: 'Browser', code: USER_TOKEN },
          { label: 'Node.js back end', code: VERIFY_TOKEN },
        ],
      },
    ],
    notes: {
      title: 'Before you ship',
      items: [
        'When your front end and the passport are on different origins, add the front end’s origin to ALLOWED_ORIGINS, or the CSRF check refuses its requests.',
        'Hand captcha-loader to AccountProvider (or client.use(challengePlugin(…))); otherwise requests that need a challenge simply fail.',
        'next and redirect_uri accept same-site paths or allow-listed origins only; anything else is replaced by the default.',
        'The full API reference is this server’s /docs (OpenAPI).',
      ],
    },
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
      <ol className="steps">
        {text.steps.map((step) => (
          <li key={step.title} className="step">
            <h2>{step.title}</h2>
            <p>{step.text}</p>
            {step.samples.map((sample) => (
              <CopyCode key={sample.label} label={`${step.title} · ${sample.label}`} code={sample.code} />
            ))}
          </li>
        ))}
      </ol>
      <section className="card notes">
        <h2>{text.notes.title}</h2>
        <ul>
          {text.notes.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}
