import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Outbox } from '../../delivery/outbox';
import { normaliseEmail, normaliseMobile } from '../../lib/identifiers';
import { webSuccess } from '../../protocol';
import { webResponses } from '../../schemas/common';

const OutboxQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 254, description: 'a mobile or e-mail' })),
});
const OutboxMessage = Type.Object({
  id: Type.String(),
  channel: Type.Union([Type.Literal('sms'), Type.Literal('email')]),
  to: Type.String(),
  subject: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  created_at: Type.Integer(),
});

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** /dev/outbox (a page) and /dev/outbox/messages?to= (JSON): registered only when the outbox is in use. */
const outboxRoutes: FastifyPluginAsyncTypebox<{ outbox: Outbox }> = async (app, { outbox }) => {
  const normalise = (to: string | undefined) =>
    to === undefined
      ? undefined
      : (normaliseEmail(to) ??
        normaliseMobile(to, app.config.defaultRegion, { fictional: true })?.e164 ??
        to.trim());

  app.get(
    '/dev/outbox/messages',
    {
      schema: {
        summary: 'Messages the dev outbox holds, newest first (development only)',
        tags: ['dev'],
        querystring: OutboxQuery,
        response: webResponses(Type.Object({ messages: Type.Array(OutboxMessage) })),
      },
    },
    async (request) => webSuccess({ messages: await outbox.list(normalise(request.query.to)) }),
  );

  app.get('/dev/outbox', { schema: { hide: true, querystring: OutboxQuery } }, async (request, reply) => {
    const messages = await outbox.list(normalise(request.query.to));
    const rows = messages
      .map(
        (m) =>
          `<tr><td>${new Date(m.created_at).toISOString()}</td><td>${m.channel}</td><td>${escapeHtml(m.to)}</td><td>${escapeHtml(m.subject ?? '')}</td><td><pre>${escapeHtml(m.text)}</pre></td></tr>`,
      )
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev outbox</title></head><body><h1>Dev outbox</h1><p>Messages the server would have sent. Only development servers have this page.</p><form method="get"><input name="to" placeholder="mobile or e-mail"> <button>Filter</button></form><table border="1" cellpadding="4"><thead><tr><th>time</th><th>channel</th><th>to</th><th>subject</th><th>text</th></tr></thead><tbody>${rows || '<tr><td colspan="5">No messages yet.</td></tr>'}</tbody></table></body></html>`,
      );
  });
};

export default outboxRoutes;
