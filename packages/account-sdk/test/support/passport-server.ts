import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** One request as the fixture server saw it on the wire. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The raw body bytes as text. */
  raw: string;
  /** The body parsed as a form when it is one. */
  form: URLSearchParams;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void | Promise<void>;

/** Answers with a JSON body and an `x-tt-logid` header. */
export function json(response: ServerResponse, body: unknown, status = 200, logId = 'log-0001'): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-tt-logid': logId });
  response.end(JSON.stringify(body));
}

/**
 * A real HTTP server on an ephemeral loopback port, recording every request. The handler answers;
 * by default every request gets the web success envelope echoing nothing.
 */
export async function startPassport(handler?: Handler) {
  const passport = fixturePassport(handler);
  await passport.listen();
  return passport;
}

/**
 * The test file's fixture passport: listening before its first test and closed after its last; before
 * each test its record is cleared and, given `each`, its handler set to a fresh `each()`.
 */
export function usePassport(each?: () => Handler): Passport {
  const passport = fixturePassport();
  beforeAll(() => passport.listen());
  afterAll(() => passport.close());
  beforeEach(() => {
    passport.requests.length = 0;
    if (each) passport.handle(each());
  });
  return passport;
}

function fixturePassport(handler?: Handler) {
  const requests: SeenRequest[] = [];
  let current: Handler = handler ?? ((_, response) => json(response, { message: 'success', data: {} }));
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fixture');
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      raw,
      form: new URLSearchParams(
        String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded') ? raw : '',
      ),
    };
    requests.push(seen);
    try {
      await current(seen, res);
    } catch (error) {
      res.destroy(error as Error);
    }
  });
  // Idle keep-alive connections stay open until close(): Node closes them after 5 s by default, and a
  // loaded machine can delay the client's own expiry past that, so it reuses a socket the server just
  // closed (ECONNRESET on a POST, which nothing may retry).
  server.keepAliveTimeout = 0;
  let url = '';
  return {
    async listen() {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    get url() {
      if (!url) throw new Error('the fixture passport is not listening yet');
      return url;
    },
    requests,
    get last(): SeenRequest {
      const last = requests.at(-1);
      if (!last) throw new Error('no request reached the fixture');
      return last;
    },
    handle(next: Handler) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Passport = Omit<ReturnType<typeof fixturePassport>, 'listen'>;
