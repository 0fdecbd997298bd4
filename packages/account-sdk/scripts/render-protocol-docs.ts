/**
 * Renders docs/protocol.md from the protocol tables themselves, so the document cannot drift from the
 * code. `renderProtocolDocs(protocol)` is pure (the docs test calls it in memory); run as a script it
 * writes the file:
 *
 *   pnpm --filter @portico/account-sdk run docs:protocol
 *
 * Node 24 runs this file directly (type stripping). The protocol sources import each other without
 * extensions, as the bundler resolution wants, so the script first registers a tiny resolve hook that
 * retries a relative, extensionless import with `.ts`. No dependency, no build step.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Protocol = typeof import('../src/protocol/index');
type ErrorRangeTexts = import('../src/protocol/index').ErrorRangeTexts;

export const REGENERATE_COMMAND = 'pnpm --filter @portico/account-sdk run docs:protocol';
export const DOCS_FILE = fileURLToPath(new URL('../../../docs/protocol.md', import.meta.url));

const FAMILY_TITLES: Record<string, string> = {
  web: 'Web passport',
  passport: 'Other passport paths',
  mobile: 'Mobile',
  legacy: 'Legacy root',
  sso: 'SSO flavour',
  open: 'Open authorization',
  profile: 'User profile',
  download: 'Image download',
  vc: 'Challenge service',
  monitor: 'Web id and monitoring',
  app: 'App API',
};

/** Escapes a value for a Markdown table cell. */
const cell = (value: unknown): string =>
  String(value).replaceAll('\\', '\\\\').replaceAll('|', '\\|').replaceAll('\n', ' ');
const code = (value: unknown): string => `\`${String(value)}\``;
const table = (head: string[], rows: unknown[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
];
/** `.key`, or `['key']` when the key is no identifier (the `{aid}` profile paths). */
const access = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `['${key}']`);
const json = (value: unknown): string[] => ['```json', JSON.stringify(value, null, 2), '```'];

/** The whole document as a string; the same input always gives the same bytes. */
/**
 * Error ranges other packages add (the organisation SDK's 16xx, open authorization's 17xx): list their
 * `defineErrorTexts(…)` here, or pass them to `renderProtocolDocs`, and docs/protocol.md renders them
 * after the SDK's own.
 */
export const OTHER_ERROR_RANGES: ErrorRangeTexts[] = [];

export function renderProtocolDocs(
  p: Protocol,
  otherRanges: readonly ErrorRangeTexts[] = OTHER_ERROR_RANGES,
): string {
  const out: string[] = [
    `<!-- Generated from packages/account-sdk/src/protocol by \`${REGENERATE_COMMAND}\`. Do not edit by hand. -->`,
    '',
    '# The Portico protocol',
    '',
    'The tables the account SDK and the passport server share, exported from `@portico/account-sdk/protocol`.',
    'Everything below is rendered from those exports; change the code, then regenerate this file.',
    '',
  ];

  out.push('## Paths', '');
  out.push(
    'Each family is written once as its path names; the key is the camelCase of the name',
    `(${code('email/send_code')} → ${code(p.pathKey('email/send_code'))}), so ${code('paths.web.emailSendCode')} is`,
    `${code(p.paths.web.emailSendCode)}. Passport paths end with ${code('/')}; the challenge service and the app API do not.`,
    `The organisation (affiliate) family lives under ${code(p.AFFILIATE_PREFIX)}; its paths ship with affiliate-sdk.`,
    '',
  );
  for (const [family, entries] of Object.entries(p.paths)) {
    const rows = Object.entries(entries).map(([key, path]) => [
      code(`paths.${family}${access(key)}`),
      code(path),
    ]);
    out.push(`### ${FAMILY_TITLES[family] ?? family} (${code(family)}, ${rows.length})`, '');
    out.push(...table(['Key', 'Path'], rows), '');
  }

  out.push('## Code purposes', '');
  out.push(
    `Sent as ${code('type')} with every one-time code request. The server binds a code to its purpose and`,
    'target, so a code sent for one purpose never serves another.',
    '',
  );
  out.push(
    ...table(
      ['Value', 'Name'],
      Object.entries(p.CodeType)
        .sort(([, a], [, b]) => a - b)
        .map(([name, value]) => [value, code(`CodeType.${name}`)]),
    ),
    '',
  );
  out.push(
    `E-mail register codes use type ${p.EmailCodeType.register}; the sso flavour sends ${code('ect_type')}`,
    `${p.EmailCodeType.ssoCodeLogin} for e-mail code login; account verify sends ${code('user_login_version')} ${p.USER_LOGIN_VERSION}.`,
    '',
  );

  out.push('## Envelopes', '');
  out.push(
    'A business failure is HTTP 200 with its failure envelope; a protocol violation answers with its HTTP',
    `status and still carries an envelope with an ${code('error_code')}. Every response has an ${code(p.LOG_ID_HEADER)}`,
    `header, which the SDK attaches as ${code('log_id')} to every rejection. A string body is parsed as JSON.`,
    '',
  );
  const sources = [
    ['web', `${code('message')} equals ${code('"success"')}`],
    ['app', 'as web: the app source speaks the web envelope'],
    ['sso', `${code('error_code')} equals ${code(0)}`],
    ['auth', `${code('status_code')} equals ${code(0)} (open authorization)`],
  ] as const;
  out.push(
    ...table(
      ['Source', 'Success when'],
      sources.map(([s, rule]) => [code(s), rule]),
    ),
    '',
  );
  const example = p.errors.wrongCredentials;
  for (const [source] of sources) {
    if (source === 'app') continue;
    out.push(`### ${code(source)}`, '', 'Success:', '');
    out.push(...json(p.successEnvelope(source, { user_id: '42' })), '');
    out.push('Failure:', '');
    out.push(...json(p.failureEnvelope(source, example.code, example.en)), '');
  }
  out.push(
    `Whatever the source, the failure fields normalise to ${code('{error_code, description, …data}')};`,
    `a body that is no envelope at all reads as ${code('error_code')} ${code(-1)}.`,
    '',
  );

  out.push('## Error catalogue', '');
  out.push(
    'Stable codes apart from human text: apps translate by code and never parse messages. An unknown code',
    `falls back to the text of ${code(p.errors.internalError.name)}.`,
    '',
  );
  out.push(
    `Codes come in ranges, one per concern; a package adds its own with ${code('defineErrorRange')} (codes,`,
    `names, HTTP status) and ${code('defineErrorTexts')} (zh, en), and ${code('errorCatalogue')} merges them.`,
    '',
  );
  for (const range of p.errorCatalogue([...p.ERROR_TEXTS, ...otherRanges]).ranges) {
    const span = range.first === range.last ? `${range.first}` : `${range.first}–${range.last}`;
    out.push(`### ${range.title} (${span})`, '');
    out.push(
      ...table(
        ['Code', 'Name', 'HTTP', 'zh', 'en'],
        range.entries.map((e) => [e.code, code(e.name), e.status, e.zh, e.en]),
      ),
      '',
    );
  }
  out.push(
    `- ${p.SECOND_VERIFY_CODE} asks for a second verification; its data carries ${code('sms_code_key')}. Closing`,
    `  the dialog (or an app that handles it) rejects with description ${code(p.SECOND_VALID)}.`,
    `- A failure whose data carries ${code(p.DECISION_CONF_FIELD)} demands a challenge; on success the request`,
    `  is resent with the fingerprint and ${code('isResend')}; closing the challenge rejects with an empty`,
    `  description; a malformed configuration logs ${code(p.WRONG_DECISION_CONFIG)}.`,
    `- Network failures never come from the server; the client tells them apart as ${Object.values(
      p.NetworkErrorKind,
    )
      .map(code)
      .join(', ')}.`,
    '',
  );
  out.push('### Challenge subtypes', '');
  const subtypeCodes = [...new Set(Object.values(p.CaptchaDecisionCode))].sort((a, b) => a - b);
  out.push(
    ...table(
      ['Decision code', 'Puzzle'],
      [...subtypeCodes.map((c) => [c, p.captchaSubtype(c)]), ['any other', p.captchaSubtype(Number.NaN)]],
    ),
    '',
  );

  out.push('## Mix codec', '');
  out.push(
    `With ${code('mix_mode=1')}, each sensitive field travels as the hex of its UTF-8 bytes, each byte XOR 0x05`,
    `(${code('"a"')} → ${code(p.mixEncode('a'))}, ${code('"中"')} → ${code(p.mixEncode('中'))}). The client adds`,
    `${code('mix_mode')} ${code(1)} only when it encoded a field; the server decodes when ${code('mix_mode')} is 1 and`,
    'answers 400 for a field that is not a mixed value. It keeps values out of casual logs; it is not',
    'security (TLS is).',
    '',
    `Sensitive fields: ${p.SENSITIVE_FIELDS.map(code).join(', ')}.`,
    '',
  );

  out.push('## Defaults', '');
  out.push(`Regions: ${p.REGIONS.map(code).join(', ')}. SDK version: ${code(p.SDK_VERSION)}.`, '');
  out.push(
    ...table(
      ['Name', 'Default'],
      Object.entries(p.DEFAULTS).map(([k, v]) => [code(k), code(JSON.stringify(v))]),
    ),
    '',
  );
  out.push('### Timeouts and retries', '');
  out.push(
    ...table(
      ['Name', 'Value'],
      Object.entries(p.TIMEOUTS).map(([k, v]) => [code(k), k.endsWith('Retries') ? `${v} retry` : `${v} ms`]),
    ),
    '',
  );
  out.push('### Fetch helper', '');
  out.push(
    ...table(
      ['Name', 'Value'],
      Object.entries(p.QUERY_DEFAULTS).map(([k, v]) => [code(k), `${v} ms`]),
    ),
    '',
  );
  out.push('### Limits', '');
  out.push(
    `The numbers every side agrees on (${code('LIMITS')}): forms, countdowns and the server's own rules read them.`,
    '',
    ...table(
      ['Name', 'Value'],
      Object.entries(p.LIMITS).map(([k, v]) => [code(k), code(v)]),
    ),
    '',
  );
  out.push(
    `The open-auth state cookie lasts ${p.OPEN_AUTH_STATE_MAX_AGE_SECONDS} s (${p.OPEN_AUTH_STATE_MAX_AGE_SECONDS / 86_400} days).`,
    `Breakpoints: ${Object.entries(p.BREAKPOINTS)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} px.`,
    '',
  );

  out.push('## Headers and cookies', '');
  out.push(
    ...table(
      ['Name', 'Kind', 'Purpose'],
      [
        [
          code(p.CSRF_COOKIE),
          'cookie',
          'CSRF token set by the server, readable by script, bound to the session',
        ],
        [code(p.CSRF_HEADER), 'request header', 'the CSRF cookie copied by the SDK on every request'],
        [code(p.LOG_ID_HEADER), 'response header', `attached as ${code('log_id')} to every rejection`],
        [code(p.SESSION_COOKIE), 'cookie', 'opaque HttpOnly session token'],
        [
          code(p.WEB_ID_COOKIE),
          'cookie',
          `device fingerprint, e.g. ${code('verify_<time base 36>_<32 characters>')}`,
        ],
      ],
    ),
    '',
  );

  return `${out.join('\n').trimEnd()}\n`;
}

/** Lets Node load the protocol sources, which import each other without the `.ts` extension. */
async function registerExtensionlessTs(): Promise<void> {
  const { registerHooks } = await import('node:module');
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        if (!/^\.\.?\//.test(specifier) || /\.[cm]?[jt]s$/.test(specifier)) throw error;
        return nextResolve(`${specifier}.ts`, context);
      }
    },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await registerExtensionlessTs();
  const protocol: Protocol = await import('../src/protocol/index');
  writeFileSync(DOCS_FILE, renderProtocolDocs(protocol));
  console.log(`wrote ${DOCS_FILE}`);
}
