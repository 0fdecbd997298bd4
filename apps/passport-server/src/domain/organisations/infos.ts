import { PassportError } from '../../errors';
import { ORGANISATION_LIMITS } from '../../protocol';

function depthOf(value: unknown, depth = 0): number {
  if (typeof value !== 'object' || value === null) return depth;
  let max = depth + 1;
  for (const child of Object.values(value)) max = Math.max(max, depthOf(child, depth + 1));
  return max;
}

/**
 * `base_infos` / `detail_infos` as they arrive (JSON text): a JSON object of at most
 * ORGANISATION_LIMITS.infosMaxBytes and infosMaxDepth levels, returned as canonical JSON text; anything
 * else is INFOS_INVALID naming the field. Undefined stays undefined (not sent).
 */
export function infosOf(field: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (Buffer.byteLength(raw, 'utf8') > ORGANISATION_LIMITS.infosMaxBytes)
    throw new PassportError('infosInvalid', { field });
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new PassportError('infosInvalid', { field });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new PassportError('infosInvalid', { field });
  if (depthOf(value) > ORGANISATION_LIMITS.infosMaxDepth) throw new PassportError('infosInvalid', { field });
  return JSON.stringify(value);
}

/** A list of strings as it may arrive in a form: JSON array text, a repeated key (an array) or one value. */
export function stringListOf(
  field: string,
  raw: string | readonly string[] | undefined,
  max: number,
): string[] | undefined {
  if (raw === undefined) return undefined;
  let list: unknown = raw;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.startsWith('[')) {
      try {
        list = JSON.parse(text);
      } catch {
        throw new PassportError('invalidParam', { field });
      }
    } else list = text === '' ? [] : text.split(',').map((s) => s.trim());
  }
  if (
    !Array.isArray(list) ||
    list.length > max ||
    !list.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 128)
  )
    throw new PassportError('invalidParam', { field });
  return [...new Set(list as string[])];
}
