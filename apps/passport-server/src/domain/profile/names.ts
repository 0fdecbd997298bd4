import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';

/** The name an account is given at creation (src/domain/accounts): `user` and nine digits. */
export const GENERATED_NAME = /^user\d{9}$/;

export const NAME_MAX = 20;
export const DESCRIPTION_MAX = 200;

/**
 * Words no display name may contain: names that pass for staff or the system, and a short list of
 * common insults (zh and en). Matched case-insensitively on the NFKC form with spaces removed, so
 * `A d m i n` and fullwidth letters do not slip through. A product extends it where it needs more.
 */
const BLOCKED = [
  'admin',
  'administrator',
  'root',
  'system',
  'official',
  'support',
  'moderator',
  'portico',
  '管理员',
  '官方',
  '客服',
  '系统',
  'fuck',
  'shit',
  'bitch',
  'cunt',
  'nigger',
  'faggot',
  '傻逼',
  '操你',
  '妈的',
  '去死',
];

/** Control, format (zero-width) and unassigned characters, and line breaks. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

const compact = (name: string) => name.toLowerCase().replace(/[\s._-]+/g, '');

/** Whether a name is free of the blocked words. */
export const isAllowedName = (name: string) => {
  const c = compact(name.normalize('NFKC'));
  return !BLOCKED.some((word) => c.includes(word)) && !GENERATED_NAME.test(c);
};

/** The stored form of a display name: NFKC, inner runs of spaces as one, trimmed; or NAME_INVALID / NAME_NOT_ALLOWED. */
export function normaliseName(input: string): string {
  const name = input.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  const length = [...name].length;
  if (length < 1 || length > NAME_MAX || INVISIBLE.test(name)) throw new PassportError('nameInvalid');
  if (!isAllowedName(name)) throw new PassportError('nameNotAllowed');
  return name;
}

/** A description: NFKC, at most 200 characters, line breaks allowed, no other control characters. */
export function normaliseDescription(input: string): string {
  const text = input.normalize('NFKC').replace(/\r\n?/g, '\n').trim();
  // Line breaks are kept; every other control, format or unassigned character is refused.
  if ([...text].length > DESCRIPTION_MAX || INVISIBLE.test(text.replace(/\n/g, ' ')))
    throw new PassportError('profileFieldInvalid', { field: 'description' });
  return text;
}

/** A birthday: '' clears it; otherwise a real calendar date from 1900-01-01 up to today. */
export function normaliseBirthday(input: string, now: number): string | null {
  if (input === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (
    !match ||
    !date ||
    date.toISOString().slice(0, 10) !== input ||
    input < '1900-01-01' ||
    date.getTime() > now
  )
    throw new PassportError('profileFieldInvalid', { field: 'birthday' });
  return input;
}

const ADJECTIVES = {
  zh: ['安静的', '快乐的', '勇敢的', '温柔的', '聪明的', '闪亮的', '自由的', '认真的'],
  en: ['Quiet', 'Happy', 'Brave', 'Gentle', 'Clever', 'Bright', 'Free', 'Steady'],
};
const NOUNS = {
  zh: ['海豚', '松鼠', '云朵', '星星', '竹子', '小鹿', '灯塔', '橙子'],
  en: ['Otter', 'Squirrel', 'Cloud', 'Comet', 'Maple', 'Heron', 'Harbour', 'Pebble'],
};

/** Candidate names: an adjective, a noun and two digits, from word lists chosen to be inoffensive. */
export function candidateNames(language: 'zh' | 'en', count: number): string[] {
  const out = new Set<string>();
  while (out.size < count) {
    const a = ADJECTIVES[language][randomInt(ADJECTIVES[language].length)]!;
    const n = NOUNS[language][randomInt(NOUNS[language].length)]!;
    const digits = String(randomInt(10, 100));
    out.add(language === 'zh' ? `${a}${n}${digits}` : `${a}${n}${digits}`);
  }
  return [...out];
}

/** The candidates someone already uses as their name. */
export async function namesInUse(db: Kysely<Database>, candidates: string[]): Promise<Set<string>> {
  const rows = await db
    .selectFrom('users')
    .select('screen_name')
    .where('screen_name', 'in', candidates)
    .execute();
  return new Set(rows.map((row) => row.screen_name));
}
