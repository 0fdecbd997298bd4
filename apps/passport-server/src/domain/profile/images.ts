import type { FastifyInstance } from 'fastify';
import sharp, { type Metadata } from 'sharp';
import type { ImagesTable } from '../../db/schema';
import { PassportError } from '../../errors';
import { randomToken } from '../../lib/crypto';

/** Upload limits (SECURITY.md, uploads): bytes while streaming, pixels before decoding, the stored size. */
export const IMAGE_LIMITS = {
  /** Bytes of one uploaded file; the parser stops reading past it. */
  maxBytes: 5 * 1024 * 1024,
  /** Width × height declared by the header, checked before any pixel is decoded. */
  maxPixels: 40_000_000,
  /** The longest side stored: avatars 512 px, pictures 2048 px. */
  avatarSide: 512,
  picSide: 2048,
} as const;

export type SniffedType = 'png' | 'jpeg' | 'webp' | 'gif';

/**
 * The type by magic bytes, from the allow-list (png, jpeg, webp, gif), or null. What the client says
 * (file name, Content-Type) is never trusted; SVG, HTML, PDF and everything else are refused here.
 */
export function sniffImage(bytes: Buffer): SniffedType | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'gif';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

export interface ProcessedImage {
  data: Buffer;
  mime: 'image/webp';
  width: number;
  height: number;
}

/**
 * Re-encodes an upload: the magic bytes must be on the allow-list and agree with what libvips finds
 * (a file that starts as a GIF but is something else is refused); the declared size must stay under the
 * pixel cap before decoding; a truncated or damaged image is refused; the result is a fresh WebP, turned
 * upright by its EXIF orientation, scaled down to `maxSide`, with no metadata (EXIF, XMP, ICC comments)
 * and nothing of the original bytes (a script appended to a PNG does not survive). Animated GIFs keep
 * their first frame.
 */
export async function processImage(bytes: Buffer, maxSide: number): Promise<ProcessedImage> {
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw new PassportError('imageTypeNotAllowed');
  const options = { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'truncated', animated: false } as const;
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw new PassportError('imageInvalid');
  }
  if (meta.format !== sniffed) throw new PassportError('imageInvalid');
  if (!meta.width || !meta.height) throw new PassportError('imageInvalid');
  if (meta.width * meta.height > IMAGE_LIMITS.maxPixels) throw new PassportError('imageTooManyPixels');
  try {
    const { data, info } = await sharp(bytes, options)
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { data, mime: 'image/webp', width: info.width, height: info.height };
  } catch {
    throw new PassportError('imageInvalid');
  }
}

/** A server-chosen key: 192 random bits; nothing of the client's file name is kept. */
export const newImageKey = () => randomToken(24);

/** Where an image is served: the download path with its key. */
export const imageUrl = (key: string) => `/user/web/download/image/?key=${encodeURIComponent(key)}`;

/** Who may see an image: an approved one anybody; a pending or rejected one its owner and the operators. */
export function canSee(
  app: FastifyInstance,
  image: Pick<ImagesTable, 'owner_id' | 'review_state'>,
  viewerId: string | undefined,
): boolean {
  if (image.review_state === 'approved') return true;
  if (!viewerId) return false;
  return image.owner_id === viewerId || app.config.operators.includes(viewerId);
}

/** The built-in default images: solid colours, written at start when missing and stored like any image. */
const DEFAULT_AVATAR_COLOURS = ['#4f7cac', '#5a9367', '#c07a3e', '#8e5aa8', '#c05a6b', '#4a8f9c'];
const DEFAULT_BACKGROUND_COLOURS = ['#dfe7f2', '#e4efe1', '#f4e6d6', '#ece3f2'];

export const DEFAULT_AVATAR_KEYS = DEFAULT_AVATAR_COLOURS.map((_, i) => `default-avatar-${i + 1}`);
export const DEFAULT_BACKGROUND_KEYS = DEFAULT_BACKGROUND_COLOURS.map(
  (_, i) => `default-background-${i + 1}`,
);

/**
 * The default images of an app. Every app has the built-in set today; a per-aid set is one more row
 * in this table (a product with its own look adds its keys).
 */
const APP_DEFAULTS: Record<string, { avatars: string[]; backgrounds: string[] }> = {
  '*': { avatars: DEFAULT_AVATAR_KEYS, backgrounds: DEFAULT_BACKGROUND_KEYS },
};
export function defaultImages(aid: string, kind: 'avatars' | 'backgrounds') {
  const set = APP_DEFAULTS[aid] ?? APP_DEFAULTS['*']!;
  return { images: set[kind].map((key) => ({ key, url: imageUrl(key) })) };
}

/**
 * Each built-in image's bytes, encoded once per process: they depend on nothing but the colour and
 * size, and encoding the ten was about 120 ms of CPU, which every server on a new database paid (the
 * test suites start hundreds in a few processes).
 */
const encoded = new Map<string, Promise<Buffer>>();
function encodedImage(colour: string, width: number, height: number): Promise<Buffer> {
  const key = `${colour} ${width}x${height}`;
  let data = encoded.get(key);
  if (!data) {
    data = sharp({ create: { width, height, channels: 3, background: colour } })
      .webp({ quality: 90 })
      .toBuffer();
    // A failed encode is not kept: the next server tries again.
    data.catch(() => encoded.delete(key));
    encoded.set(key, data);
  }
  return data;
}

/** Writes the built-in images when they are missing (every instance may; the insert ignores conflicts). */
export async function seedDefaultImages(app: FastifyInstance): Promise<void> {
  const existing = new Set(
    (
      await app.db
        .selectFrom('images')
        .select('key')
        .where('key', 'in', [...DEFAULT_AVATAR_KEYS, ...DEFAULT_BACKGROUND_KEYS])
        .execute()
    ).map((row) => row.key),
  );
  const make = async (
    key: string,
    colour: string,
    kind: 'default-avatar' | 'default-background',
    width: number,
    height: number,
  ) => {
    if (existing.has(key)) return;
    const data = await encodedImage(colour, width, height);
    await app.db
      .insertInto('images')
      .values({
        key,
        owner_id: null,
        kind,
        mime: 'image/webp',
        width,
        height,
        size: data.length,
        review_state: 'approved',
        data,
        created_at: app.runtime.now(),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  };
  await Promise.all([
    ...DEFAULT_AVATAR_COLOURS.map((c, i) => make(DEFAULT_AVATAR_KEYS[i]!, c, 'default-avatar', 256, 256)),
    ...DEFAULT_BACKGROUND_COLOURS.map((c, i) =>
      make(DEFAULT_BACKGROUND_KEYS[i]!, c, 'default-background', 1200, 400),
    ),
  ]);
}
