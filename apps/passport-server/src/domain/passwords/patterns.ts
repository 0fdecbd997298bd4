/**
 * Common password patterns the strength estimator scores too high (zxcvbn-ts gave `woaini1314`,
 * `Woaini520!` and `Admin@2026` a 3): every guessing list tries them early. A small list, kept here and
 * in docs/security.md, on top of the most common 10,000 passwords and the estimator:
 *
 * - a **common word** (BASE_WORDS, with the usual letter-for-symbol swaps undone: `P@ssw0rd` is
 *   `password`), a phrase starting `woai`/`ilove`, or a keyboard walk, with only **common decorations**
 *   around it: years (1900–2099), the love numbers (`520`, `521`, `1314`, `5201314`, `7758`, `9420`),
 *   counting runs (`123`…), repeated digits and symbols, two other characters at most;
 * - a password made of common decorations alone (`5201314520`);
 * - a **keyboard walk**: three or more keys in a row or a column of a US keyboard, shifted or not, and
 *   only such runs (`1qaz2wsx3edc`, `1qaz@WSX`, `zxcvbnm,./`).
 *
 * Answers which pattern matched, or null. Cheap (no backtracking; a few passes over ≤ 1 KiB).
 */

/** Words a person dresses up with a year or a love number. Lower case, no swaps. */
const BASE_WORDS = new Set([
  'admin',
  'administrator',
  'password',
  'passwd',
  'pass',
  'root',
  'user',
  'test',
  'guest',
  'welcome',
  'hello',
  'letmein',
  'qwerty',
  'abc',
  'abcd',
  'abcde',
  'abcdef',
  'iloveyou',
  'loveyou',
  'iloveu',
  'love',
  'monkey',
  'dragon',
  'master',
  'sunshine',
  'princess',
  'football',
  'superman',
  'batman',
  'changeme',
  'default',
  'woaini',
  'aini',
  'nihao',
  'woshishui',
  'zhongguo',
  'china',
  'beijing',
  'shanghai',
  'huawei',
  'xiaomi',
  'baidu',
  'taobao',
  'tencent',
  'alibaba',
  'qq',
  'wangyi',
  'zhangwei',
  'wangwei',
  'lilei',
  'hanmeimei',
]);

/** Phrases that start this way and stay short are love declarations (`woaiwojia`, `iloveanna`). */
const LOVE_PREFIXES = ['woai', 'ilove'];
const LOVE_PHRASE_MAX = 14;

/** Letter-for-symbol swaps undone before a word is looked up. */
const UNSWAP: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '0': 'o',
  '1': 'i',
  '!': 'i',
  '3': 'e',
  $: 's',
  '5': 's',
  '7': 't',
};

/** The rows and columns of a US keyboard, unshifted. */
const KEY_LINES = [
  '`1234567890-=',
  'qwertyuiop[]\\',
  "asdfghjkl;'",
  'zxcvbnm,./',
  '1qaz',
  '2wsx',
  '3edc',
  '4rfv',
  '5tgb',
  '6yhn',
  '7ujm',
  '8ik,',
  '9ol.',
  '0p;/',
];
const KEY_RUNS = [...KEY_LINES, ...KEY_LINES.map((line) => [...line].reverse().join(''))];

/** Shifted keys to their unshifted key. */
const UNSHIFT: Record<string, string> = {
  '!': '1',
  '@': '2',
  '#': '3',
  $: '4',
  '%': '5',
  '^': '6',
  '&': '7',
  '*': '8',
  '(': '9',
  ')': '0',
  _: '-',
  '+': '=',
  '{': '[',
  '}': ']',
  '|': '\\',
  ':': ';',
  '"': "'",
  '<': ',',
  '>': '.',
  '?': '/',
  '~': '`',
};

/** Whether `text` is made only of keyboard runs of three keys or more (shift ignored). */
export function isKeyboardWalk(text: string): boolean {
  const keys = [...text.toLowerCase()].map((c) => UNSHIFT[c] ?? c).join('');
  if (keys.length < 4) return false;
  let at = 0;
  while (at < keys.length) {
    let longest = 0;
    for (const run of KEY_RUNS) {
      for (let length = Math.min(run.length, keys.length - at); length > longest; length--) {
        if (run.includes(keys.slice(at, at + length))) {
          longest = length;
          break;
        }
      }
    }
    if (longest < 3) return false;
    at += longest;
  }
  return true;
}

/** Whether what surrounds a word is only the decorations every list tries. */
function isCommonDecoration(text: string): boolean {
  const left = text
    .replace(/5201314|1314520|1314|520|521|7758|9420/g, '')
    .replace(/(19|20)\d\d/g, '')
    .replace(/0?123456789|12345678|1234567|123456|12345|1234|123|321/g, '')
    .replace(/(\d)\1+/g, '')
    .replace(/[^\p{L}\p{N}]/gu, '');
  return [...left].length <= 2;
}

/** Whether a bare word (its decorations removed) is one of the common ones. */
function isCommonWord(core: string): boolean {
  if (!core) return false;
  const unswapped = [...core].map((c) => UNSWAP[c] ?? c).join('');
  for (const word of [core, unswapped]) {
    if (BASE_WORDS.has(word)) return true;
    if (LOVE_PREFIXES.some((prefix) => word.startsWith(prefix)) && word.length <= LOVE_PHRASE_MAX)
      return true;
  }
  return isKeyboardWalk(core);
}

export type CommonPattern = 'keyboard walk' | 'decorations only' | 'common word';

/** Which common pattern a new password follows, or null (see the module's comment). */
export function commonPattern(password: string): CommonPattern | null {
  const text = password.normalize('NFKC').toLowerCase();
  if (isKeyboardWalk(text)) return 'keyboard walk';
  // The word: from the first letter to the last; the rest is its decoration.
  const first = text.search(/\p{L}/u);
  if (first < 0) return isCommonDecoration(text) ? 'decorations only' : null;
  const last = text.match(/^.*\p{L}/su)?.[0].length ?? text.length;
  const core = text.slice(first, last);
  const decoration = text.slice(0, first) + text.slice(last);
  if (isCommonDecoration(decoration) && isCommonWord(core)) return 'common word';
  return null;
}
