import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DOCS_FILE,
  REGENERATE_COMMAND,
  renderProtocolDocs,
  splitProtocolDocs,
} from '../../scripts/render-protocol-docs';
import * as protocol from '../../src/protocol';

describe('docs/protocol.md', () => {
  const rendered = renderProtocolDocs(protocol);

  it('renders the same bytes twice (deterministic)', () => {
    expect(renderProtocolDocs(protocol)).toBe(rendered);
  });

  it('says at the top that it is generated, and by which command', () => {
    const first = rendered.split('\n')[0];
    expect(first).toContain('Generated');
    expect(first).toContain(REGENERATE_COMMAND);
  });

  it('is up to date with the protocol tables', () => {
    let onDisk = '';
    try {
      // The SDK's own part; other packages' generated sections follow the marker (their tests check them).
      const { own, appendix } = splitProtocolDocs(readFileSync(DOCS_FILE, 'utf8'));
      onDisk = appendix ? own.replace(/\n$/, '') : own;
    } catch {
      // A missing file is stale too; the assertion below says how to make it.
    }
    expect(
      onDisk === rendered,
      `docs/protocol.md is stale: regenerate it with \`${REGENERATE_COMMAND}\` and commit the result`,
    ).toBe(true);
  });

  it('lists every path of every family', () => {
    for (const family of Object.values(protocol.paths)) {
      for (const path of Object.values(family)) expect(rendered).toContain(`\`${path}\``);
    }
  });

  it('lists every code type with its value', () => {
    for (const [name, value] of Object.entries(protocol.CodeType)) {
      expect(rendered).toContain(`| ${value} | \`CodeType.${name}\` |`);
    }
  });

  it('lists every error with its code, name, HTTP status, zh and en text', () => {
    for (const e of Object.values(protocol.errors)) {
      expect(rendered).toContain(`| ${e.code} | \`${e.name}\` | ${e.status} | ${e.zh} | ${e.en} |`);
    }
  });

  it('renders every range of the catalogue under its own heading', () => {
    for (const range of protocol.ERROR_RANGES) expect(rendered).toContain(`### ${range.title} (`);
  });

  it('renders a range another package adds (the organisation SDK’s 16xx)', () => {
    const organisationErrors = protocol.defineErrorRange('Organisations', 1600, 1699, [
      [1601, 'NOT_A_MEMBER', 200],
    ] as const);
    const texts = protocol.defineErrorTexts(organisationErrors, {
      NOT_A_MEMBER: ['你不是该组织的成员', 'You are not a member of this organisation'],
    });
    const withIt = renderProtocolDocs(protocol, [texts]);
    expect(withIt).toContain('### Organisations (1600–1699)');
    expect(withIt).toContain(
      '| 1601 | `NOT_A_MEMBER` | 200 | 你不是该组织的成员 | You are not a member of this organisation |',
    );
  });

  it('lists every limit', () => {
    for (const [key, value] of Object.entries(protocol.LIMITS))
      expect(rendered).toContain(`| \`${key}\` | \`${value}\` |`);
  });

  it('shows the envelope of every source and its success rule', () => {
    for (const source of ['web', 'sso', 'auth']) expect(rendered).toContain(`### \`${source}\``);
    expect(rendered).toContain('"message": "success"');
    expect(rendered).toContain('"error_code": 0');
    expect(rendered).toContain('"status_code": 0');
  });

  it('states the mix rule with every sensitive field', () => {
    expect(rendered).toContain('XOR 0x05');
    for (const field of protocol.SENSITIVE_FIELDS) expect(rendered).toContain(`\`${field}\``);
  });

  it('lists the defaults, timeouts, headers and cookies', () => {
    for (const key of [...Object.keys(protocol.DEFAULTS), ...Object.keys(protocol.TIMEOUTS)]) {
      expect(rendered).toContain(`| \`${key}\` |`);
    }
    for (const name of [
      protocol.CSRF_COOKIE,
      protocol.CSRF_HEADER,
      protocol.LOG_ID_HEADER,
      protocol.SESSION_COOKIE,
      protocol.WEB_ID_COOKIE,
      protocol.LANGUAGE_COOKIE,
    ]) {
      expect(rendered).toContain(`\`${name}\``);
    }
  });
});
