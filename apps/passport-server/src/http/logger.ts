import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/**
 * The logger: nothing secret reaches a log line. The request line is method and path only (no query),
 * and any field that could carry a credential is censored wherever it appears.
 */
export function loggerOptions(
  level: string,
  stream: DestinationStream | undefined,
): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-tt-passport-csrf-token"]',
        'res.headers["set-cookie"]',
        'password',
        'code',
        'token',
        'secret',
        '*.password',
        '*.code',
        '*.token',
        '*.secret',
        '*.cookie',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req) => ({ method: req.method, path: (req.url ?? '').split('?')[0] }),
      res: (res) => ({ statusCode: res.statusCode }),
      err: (err: Error & { code?: unknown; statusCode?: unknown }) => ({
        type: err.name,
        message: err.message,
        code: err.code,
        statusCode: err.statusCode,
        stack: err.stack ?? '',
      }),
    },
  };
}
