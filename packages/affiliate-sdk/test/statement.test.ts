import { describe, expect, it } from 'vitest';
import {
  defaultStatement,
  extendStatement,
  isPermission,
  organisationErrors,
  organisationTexts,
  permissionsOf,
} from '../src/protocol';

describe('the access statement', () => {
  it('extends the default with new resources and actions, without duplicates', () => {
    const statement = extendStatement(defaultStatement, {
      report: ['read', 'export'],
      role: ['read', 'audit'],
    });
    expect(statement.report).toEqual(['read', 'export']);
    expect(statement.role).toEqual([...defaultStatement.role, 'audit']);
    expect(isPermission(statement, 'report:export')).toBe(true);
    expect(isPermission(statement, 'report:delete')).toBe(false);
    expect(isPermission(statement, 'report')).toBe(false);
    expect(permissionsOf(statement)).toContain('role:audit');
  });

  it('refuses names that are not lower-case identifiers', () => {
    expect(() => extendStatement(defaultStatement, { 'Bad Name': ['read'] })).toThrow(TypeError);
    expect(() => extendStatement(defaultStatement, { report: ['read:all'] })).toThrow(TypeError);
  });
});

describe('the organisation error range', () => {
  it('lies in 1600-1699 with zh and en texts for every code', () => {
    for (const entry of Object.values(organisationErrors.codes)) {
      expect(entry.code).toBeGreaterThanOrEqual(1600);
      expect(entry.code).toBeLessThanOrEqual(1699);
      const [zh, en] = (organisationTexts.texts as Record<string, readonly [string, string]>)[entry.name]!;
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
      expect(en).toMatch(/[a-z]/);
    }
  });
});
