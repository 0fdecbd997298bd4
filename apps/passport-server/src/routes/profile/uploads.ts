import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { IMAGE_LIMITS } from '../../domain/profile/images';
import { PassportError } from '../../errors';
import { uploadImage } from '../../flows/upload-image';
import { errorHandler } from '../../http/error-handler';
import { paths } from '../../protocol';
import { schema, UploadedImage } from '../../schemas/profile';
import { flowRoute, registerFlowRoutes } from '../declare';

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

export const uploadAvatar = flowRoute({
  method: 'POST',
  schema: schema.uploadAvatar,
  data: UploadedImage,
  at: [['profile', paths.profile.updateUploadAvatar]],
  run: (app, request) => uploadImage(app, request, 'avatar'),
});

export const uploadPic = flowRoute({
  method: 'POST',
  schema: schema.uploadPic,
  data: UploadedImage,
  at: [['profile', paths.profile.uploadPic]],
  run: (app, request) => uploadImage(app, request, 'pic'),
});

export const UPLOAD_ROUTES = [uploadAvatar, uploadPic];

const uploads: FastifyPluginAsync = async (app) => {
  await app.register(multipart, { limits: LIMITS, throwFileSizeLimit: true });
  app.addHook('preValidation', readMultipart);
  app.setErrorHandler(errorHandler);
  registerFlowRoutes(app, UPLOAD_ROUTES);
};

export default uploads;
