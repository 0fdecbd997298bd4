import { CopyCode } from '../components/copy-code';
import { CONTRIBUTE } from '../content/samples';
import { useLanguage } from '../i18n/language';

interface Block {
  title: string;
  items: { term: string; text: string }[];
}

const TEXT: Record<
  'zh' | 'en',
  {
    title: string;
    lead: string;
    blocks: Block[];
    contribute: { title: string; text: string; label: string; after: string[] };
  }
> = {
  zh: {
    title: '社区',
    lead: 'Portico 以 MIT 许可证开源，由使用它的团队一起维护。提问、报告问题、改进文档和提交代码都是贡献。',
    blocks: [
      {
        title: '在哪里提问',
        items: [
          {
            term: '使用问题',
            text: '在项目仓库的 Issues 中提问，写明版本、你的调用和收到的 error_code 与 log_id（响应头 x-tt-logid），方便定位。',
          },
          {
            term: '缺陷报告',
            text: '附上最小复现步骤、期望结果和实际结果；服务端问题请附上同一 log_id 的日志行（日志不含密码和验证码）。',
          },
          {
            term: '功能建议',
            text: '先说明你要解决的问题和场景，再谈方案；与规格（spec）相关的行为变化需要先讨论。',
          },
          {
            term: '安全问题',
            text: '请不要公开提交。通过仓库声明的私密渠道（安全公告）报告，我们会确认、修复并在发布说明中致谢。',
          },
        ],
      },
      {
        title: '从哪里开始读',
        items: [
          { term: 'docs/architecture.md', text: '规格未说明之处我们做出的决定，以及原因。' },
          { term: 'docs/protocol.md', text: '请求信封、错误码目录和验证码用途表，由协议代码生成。' },
          { term: '各包的 README', text: 'SDK、React 层和服务端的完整 API 与配置项。' },
          { term: '/docs', text: '本服务的 OpenAPI 文档，列出每个接口的参数与回答。' },
        ],
      },
    ],
    contribute: {
      title: '参与贡献',
      text: '在一台只有旧版 Node 的机器上，下面的命令也能完成安装、构建、类型检查和全部测试。',
      label: '开发命令',
      after: [
        '每个面向用户的改动附一个 changeset，写给升级的人看，而不是工作总结。',
        '新接口需要出现在路由清单测试中；安全相关的行为要有会失败的测试。',
        '界面文字同时提供中文和英文；表单要有可见标签，能用键盘完成。',
      ],
    },
  },
  en: {
    title: 'Community',
    lead: 'Portico is open source under the MIT licence and maintained together by the teams that use it. Questions, bug reports, better docs and code are all contributions.',
    blocks: [
      {
        title: 'Where to ask',
        items: [
          {
            term: 'Questions',
            text: 'Open an issue in the project’s repository. Say which version you run, the call you made, and the error_code and log_id (the x-tt-logid response header) you got.',
          },
          {
            term: 'Bugs',
            text: 'Give the smallest steps that reproduce it, what you expected and what happened; for server problems add the log lines with the same log_id (logs never contain passwords or codes).',
          },
          {
            term: 'Ideas',
            text: 'Start with the problem and who has it, then the solution; behaviour that touches the spec is discussed before it is built.',
          },
          {
            term: 'Security',
            text: 'Please do not file these in public. Use the repository’s private channel (security advisories); we confirm, fix, and credit you in the release notes.',
          },
        ],
      },
      {
        title: 'Where to start reading',
        items: [
          { term: 'docs/architecture.md', text: 'The decisions we took where the spec is silent, and why.' },
          {
            term: 'docs/protocol.md',
            text: 'Envelopes, the error catalogue and the code purposes, generated from the protocol code.',
          },
          {
            term: 'Package READMEs',
            text: 'The full API and settings of the SDK, the React layer and the server.',
          },
          {
            term: '/docs',
            text: 'This server’s OpenAPI document: every endpoint, its parameters and its answers.',
          },
        ],
      },
    ],
    contribute: {
      title: 'Contribute',
      text: 'Even on a machine with only an old Node, these commands install, build, type-check and run every test.',
      label: 'Development commands',
      after: [
        'Every user-visible change carries a changeset, written for people upgrading, not as a summary of the work.',
        'A new endpoint shows up in the route-inventory tests; security behaviour gets a test that can fail.',
        'Interface text comes in Chinese and English; forms have visible labels and work from the keyboard.',
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
      {text.blocks.map((block) => (
        <section key={block.title} className="content-section">
          <h2>{block.title}</h2>
          <dl className="feature-list">
            {block.items.map((item) => (
              <div key={item.term} className="feature">
                <dt>{item.term}</dt>
                <dd>{item.text}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <section className="content-section">
        <h2>{text.contribute.title}</h2>
        <p>{text.contribute.text}</p>
        <CopyCode label={text.contribute.label} code={CONTRIBUTE} />
        <ul className="checklist">
          {text.contribute.after.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}
