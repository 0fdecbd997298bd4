import { describe, expect, it } from 'vitest';
import { closure } from '../src/budget';

describe('the /login budget closure', () => {
  const manifest = {
    'index.html': {
      file: 'assets/index.js',
      isEntry: true,
      imports: ['_vendor.js'],
      dynamicImports: ['src/a.tsx'],
    },
    '_vendor.js': { file: 'assets/vendor.js', imports: ['_runtime.js'] },
    '_runtime.js': { file: 'assets/runtime.js' },
    'src/routes/login.tsx': {
      file: 'assets/login.js',
      imports: ['_vendor.js', '_shared.js'],
      css: ['x.css'],
    },
    '_shared.js': { file: 'assets/shared.js' },
    'src/a.tsx': { file: 'assets/a.js', imports: ['_big.js'] },
    '_big.js': { file: 'assets/big.js' },
  };

  it('counts the entry, the login chunks and their static imports once each, and no lazy chunk', () => {
    expect(closure(manifest, ['index.html', 'src/routes/login.tsx']).sort()).toEqual([
      'assets/index.js',
      'assets/login.js',
      'assets/runtime.js',
      'assets/shared.js',
      'assets/vendor.js',
    ]);
  });

  it('fails loudly when a route module is no longer a chunk of its own', () => {
    expect(() => closure(manifest, ['src/routes/gone.tsx'])).toThrow(/no entry "src\/routes\/gone.tsx"/);
  });
});
