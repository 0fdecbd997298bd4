import { describe, expect, it } from 'vitest';
import { followPageTitle } from '../src/app/page-title';

describe('followPageTitle', () => {
  it('names each page by its heading, following navigation and a language switch', async () => {
    const root = document.createElement('div');
    document.body.append(root);
    const stop = followPageTitle(root, 'Portico');
    expect(document.title).toBe('Portico');
    root.innerHTML = '<main><h1>登录</h1></main>';
    await Promise.resolve();
    expect(document.title).toBe('登录 · Portico');
    const heading = root.querySelector('h1');
    if (heading) heading.textContent = 'Sign in';
    await Promise.resolve();
    expect(document.title).toBe('Sign in · Portico');
    root.innerHTML = '<main><h1>Sign in to Portico</h1></main>';
    await Promise.resolve();
    expect(document.title).toBe('Sign in to Portico');
    root.innerHTML = '<main><p>no heading</p></main>';
    await Promise.resolve();
    expect(document.title).toBe('Portico');
    stop();
    root.remove();
  });
});
