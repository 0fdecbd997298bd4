import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { operationRoute } from '../../adapters/operation-route';
import { IMAGE_LIMITS, processImage } from '../../domain/profile/images';
import { PassportError } from '../../errors';
import { errorHandler } from '../../http/error-handler';
import { uploadAvatar as uploadAvatarOperation, uploadPicture } from '../../operations/account/images';
import { paths } from '../../protocol';
import { schema } from '../../schemas/profile';
import { registerFlowRoutes } from '../declare';

/**
 * The two upload routes, in a context of their own: only here is multipart/form-data parsed at all
 * (every other route still answers it 415). The parser is @fastify/multipart (busboy) with hard caps:
 * one file, at most 8 other fields of ≤ 1 KiB, 10 parts, 20 header pairs, and the file cut off at
 * IMAGE_LIMITS.maxBytes while it streams in. Parts are read into memory, never to a temporary file, so
 * an aborted upload leaves nothing behind (@fastify/multipart CVE-2023-25576, CVE-2025-24033).
 */

const LIMITS = {
  fields: 8,
  fieldSize: 1024,
  files: 1,
  parts: 10,
  headerPairs: 20,
  fileSize: IMAGE_LIMITS.maxBytes,
};

/** The multipart failures, as catalogue errors: never a 500. */
function refusal(error: unknown): PassportError {
  if (error instanceof PassportError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return new PassportError('oneFileOnly');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PassportError('imageTooLarge');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new PassportError('payloadTooLarge');
    default:
      // Busboy's "Unexpected end of form", a bad boundary, a client gone mid-upload.
      return new PassportError('invalidParam', { field: 'body' }, { cause: error });
  }
}

/** Reads a multipart body into `request.body`: text fields as strings, the one file as a Buffer. */
async function readMultipart(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const body: Record<string, unknown> = {};
  let parts = 0;
  try {
    for await (const part of request.parts({ limits: LIMITS })) {
      parts += 1;
      if (part.type === 'file') body[part.fieldname] = await part.toBuffer();
      else if (typeof part.value === 'string') body[part.fieldname] = part.value;
    }
  } catch (error) {
    throw refusal(error);
  }
  // A body without a single part (no boundary in it at all) is malformed, not an empty upload.
  if (parts === 0) throw new PassportError('invalidParam', { field: 'body' });
  request.body = body;
}

/** The file part of a parsed upload, or FILE_REQUIRED (a text field of that name is not a file). */
function fileOf(body: unknown, field: string): Buffer {
  const value = (body as Record<string, unknown> | undefined)?.[field];
  if (!Buffer.isBuffer(value) || value.length === 0) throw new PassportError('fileRequired', { field });
  return value;
}

/**
 * The upload was read whole by the parser (one file, size capped while streaming); here it is checked
 * and re-encoded (domain/profile/images), before the operation's transaction stores it with its effect.
 * Nothing is written before the image is known good, so a refused or aborted upload leaves no row.
 */
export const uploadAvatar = operationRoute(uploadAvatarOperation, {
  method: 'POST',
  schema: schema.uploadAvatar,
  at: [['profile', paths.profile.updateUploadAvatar]],
  prepare: async (request) => ({
    image: await processImage(fileOf(request.body, 'avatar'), IMAGE_LIMITS.avatarSide),
    sensitive: false,
  }),
});

/** A picture sent with is_sensitive=1 waits for an operator, visible only to its owner. */
export const uploadPic = operationRoute(uploadPicture, {
  method: 'POST',
  schema: schema.uploadPic,
  at: [['profile', paths.profile.uploadPic]],
  prepare: async (request) => ({
    image: await processImage(fileOf(request.body, 'pic'), IMAGE_LIMITS.picSide),
    sensitive: String(request.body?.is_sensitive ?? '0') === '1',
  }),
});

export const UPLOAD_ROUTES = [uploadAvatar, uploadPic];

const uploads: FastifyPluginAsync = async (app) => {
  await app.register(multipart, { limits: LIMITS, throwFileSizeLimit: true });
  app.addHook('preValidation', readMultipart);
  app.setErrorHandler(errorHandler);
  registerFlowRoutes(app, UPLOAD_ROUTES);
};

export default uploads;
