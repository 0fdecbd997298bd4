import type { FastifyRequest } from 'fastify';

/**
 * preValidation for app POSTs whose fields are all optional: a native app may send no body at all,
 * which means the same as an empty form (the body schema still bounds whatever does arrive).
 */
export async function bodyMayBeAbsent(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}
