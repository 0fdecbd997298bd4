import { describe, expect, it } from 'vitest';
import { formatWithHanSeams as format } from '../src/third-party/han-seams';

describe('the third-party texts’ formatting', () => {
  it('drops the spaces around a value only where it meets Chinese with Chinese', () => {
    expect(format('使用 {provider} 登录', { provider: '微信' })).toBe('使用微信登录');
    expect(format('使用 {provider} 登录', { provider: 'GitHub' })).toBe('使用 GitHub 登录');
    expect(format('{provider} 登录没有完成', { provider: '微信' })).toBe('微信登录没有完成');
    expect(format('你的 {provider} 邮箱 {email}', { provider: '微信', email: 'a@b.cn' })).toBe(
      '你的微信邮箱 a@b.cn',
    );
    expect(format('Continue with {provider}', { provider: 'WeChat' })).toBe('Continue with WeChat');
    expect(format('版本 {id} · {missing}', { id: '甲' })).toBe('版本甲 · {missing}');
    expect(format('没有值 {x}')).toBe('没有值 {x}');
  });
});
