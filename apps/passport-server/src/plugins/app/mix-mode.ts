import fp from 'fastify-plugin';
import { PassportError } from '../../errors';
import { callbackHook } from '../../lib/hooks';
import { decodeMixedFields } from '../../protocol';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * With `mix_mode=1` the SDK sends sensitive fields hex-XOR-encoded. They are decoded before validation,
 * so schemas and handlers only ever see plain values; a field that is not a mixed value is a 400.
 */
export default fp(
  async (app) => {
    app.addHook(
      'preValidation',
      callbackHook((request) => {
        try {
          if (isRecord(request.body)) request.body = decodeMixedFields(request.body);
          if (isRecord(request.query)) request.query = decodeMixedFields(request.query);
        } catch {
          throw new PassportError('invalidParam', { field: 'mix_mode' });
        }
      }),
    );
  },
  { name: 'mix-mode' },
);
