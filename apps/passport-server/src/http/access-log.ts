import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One access line per request instead of Fastify's pair ("incoming request" + "request completed"):
 * method, path without the query (which may carry a code or a ticket), status and response time, with
 * the logid every request's lines carry. It is written when the response has finished, where Fastify
 * wrote its "request completed". Errors are logged as before: a response that ended in an error keeps
 * Fastify's "request errored" line, and stream, serializer and handler errors are not touched.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const url = request.url;
    const query = url.indexOf('?');
    request.log.info(
      {
        method: request.method,
        path: query === -1 ? url : url.slice(0, query),
        statusCode: reply.statusCode,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}
