import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPENDIX_MARKER as ACCOUNT_MARKER } from '../../account-sdk/scripts/render-protocol-docs';
import {
  APPENDIX_MARKER,
  appendixOf,
  DOCS_FILE,
  REGENERATE_COMMAND,
  renderAffiliateDocs,
} from '../scripts/render-protocol-docs';
import * as protocol from '../src/protocol';

describe('the organisation section of docs/protocol.md', () => {
  const rendered = renderAffiliateDocs(protocol);

  it('uses the account SDK’s appendix marker', () => {
    expect(APPENDIX_MARKER).toBe(ACCOUNT_MARKER);
  });

  it('is up to date with the affiliate tables', () => {
    expect(
      appendixOf(readFileSync(DOCS_FILE, 'utf8')) === rendered,
      `the organisation section of docs/protocol.md is stale: regenerate it with \`${REGENERATE_COMMAND}\``,
    ).toBe(true);
  });

  it('lists every path and every code', () => {
    for (const path of Object.values(protocol.affiliatePaths)) expect(rendered).toContain(`\`${path}\``);
    for (const entry of Object.values(protocol.organisationErrors.codes))
      expect(rendered).toContain(`| ${entry.code} | \`${entry.name}\` |`);
  });
});
