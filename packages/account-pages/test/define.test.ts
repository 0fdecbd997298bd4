import { describe, expect, it } from 'vitest';
import { defineMessages, format } from '../src/i18n/define';

describe('the typed dictionaries', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(format('版本 {id} · {missing}', { id: '2026-11-22' })).toBe('版本 2026-11-22 · {missing}');
  });

  it('translates by language', () => {
    const { translate } = defineMessages({ hello: '你好，{name}' }, { hello: 'Hello, {name}' });
    expect(translate('zh', 'hello', { name: 'Ada' })).toBe('你好，Ada');
    expect(translate('en', 'hello', { name: 'Ada' })).toBe('Hello, Ada');
  });
});
