import { Link } from 'react-router';
import { useLanguage } from '../i18n/language';

const TEXT = {
  zh: {
    eyebrow: '开源 · 自行部署 · TypeScript',
    title: '给你的产品一套完整的账号登录',
    lead: 'Portico 是开源的账号系统：登录、注册、找回密码、二次验证和人机验证都已做好。把服务部署在你自己的服务器上，在前端装一个 SDK，用户数据始终留在你手里。',
    start: '免费注册试用',
    integrate: '查看接入方式',
    cards: [
      {
        title: '多种登录方式',
        body: '短信验证码、邮箱验证码、密码登录，新设备二次验证，可疑请求自动要求人机验证。',
        to: '/home',
        link: '了解 Portico',
      },
      {
        title: '几行代码接入',
        body: '框架无关的 SDK 和 React 组件库，类型完整；后端用标准 JWT 验证用户。',
        to: '/extension',
        link: '接入指南',
      },
      {
        title: '开放协作',
        body: 'MIT 许可证。问题、建议和代码贡献都欢迎，安全问题请私下报告。',
        to: '/community',
        link: '加入社区',
      },
    ],
  },
  en: {
    eyebrow: 'Open source · Self-hosted · TypeScript',
    title: 'Complete account sign-in for your product',
    lead: 'Portico is an open-source account system: sign-in, sign-up, password reset, second verification and bot challenges are done. Run the server on your own machines, install one SDK in your front end, and your users’ data stays yours.',
    start: 'Create a free account',
    integrate: 'See how to integrate',
    cards: [
      {
        title: 'Every way to sign in',
        body: 'SMS codes, e-mail codes and passwords, a second verification on new devices, and a challenge when traffic looks automated.',
        to: '/home',
        link: 'About Portico',
      },
      {
        title: 'A few lines to integrate',
        body: 'A framework-free SDK and React components, fully typed; your back end verifies users with standard JWTs.',
        to: '/extension',
        link: 'Integration guide',
      },
      {
        title: 'Built in the open',
        body: 'MIT licensed. Questions, ideas and code are welcome; report security issues privately.',
        to: '/community',
        link: 'Join the community',
      },
    ],
  },
};

/** The index page: what Portico is in one screen, and where to go next. */
export function Component() {
  const text = TEXT[useLanguage()];
  return (
    <>
      <section className="hero">
        <div className="container">
          <p className="eyebrow">{text.eyebrow}</p>
          <h1>{text.title}</h1>
          <p className="lead">{text.lead}</p>
          <div className="hero-actions">
            <Link to="/sign-up" className="button button-primary button-large">
              {text.start}
            </Link>
            <Link to="/extension" className="button button-secondary button-large">
              {text.integrate}
            </Link>
          </div>
        </div>
      </section>
      <section className="container cards" aria-label={text.eyebrow}>
        {text.cards.map((card) => (
          <article key={card.to} className="card">
            <h2>{card.title}</h2>
            <p>{card.body}</p>
            <Link to={card.to} className="card-link">
              {card.link} <span aria-hidden="true">→</span>
            </Link>
          </article>
        ))}
      </section>
    </>
  );
}
