import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PassportError } from '../../errors';
import { webSuccess } from '../../protocol';
import { CommonQuery, webResponses } from '../../schemas/common';

/**
 * The web app's legal documents are site content, not an account SDK call, so their path is declared
 * here and in apps/web/src/lib/legal.ts rather than in the protocol tables (whose size is budgeted).
 */
export const LEGAL_PATH = '/passport/web/legal/';
export const LEGAL_KINDS = ['privacy-policy', 'terms-of-service'] as const;

const Version = Type.Object({
  id: Type.String(),
  published_at: Type.Integer({ description: 'ms since the epoch' }),
});

const LegalDocument = Type.Object({
  kind: Type.Union([Type.Literal('privacy-policy'), Type.Literal('terms-of-service')]),
  id: Type.String({ description: 'the version' }),
  published_at: Type.Integer({ description: 'ms since the epoch' }),
  title: Type.Object({ zh: Type.String(), en: Type.String() }),
  body: Type.Object({
    zh: Type.String({ description: "markdown-ish: '## heading', '- item', blank lines between paragraphs" }),
    en: Type.String(),
  }),
  versions: Type.Array(Version, { description: 'every published version of this kind, newest first' }),
});

const Params = Type.Object({
  kind: Type.String({ pattern: '^[a-z-]{1,32}$', description: 'privacy-policy or terms-of-service' }),
  id: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$', description: 'a version, or latest' }),
});

const isKind = (kind: string): kind is (typeof LEGAL_KINDS)[number] =>
  (LEGAL_KINDS as readonly string[]).includes(kind);

/**
 * GET legal/{kind}/{id}/: one published version of a legal document, `latest` for the newest. An unknown
 * kind or version is NOT_FOUND with HTTP 404 (the web app shows its 404 page).
 */
const legal: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${LEGAL_PATH}:kind/:id/`,
    {
      schema: {
        summary:
          'A published version of the privacy policy or the terms of service (`latest` for the newest)',
        tags: ['site'],
        params: Params,
        querystring: CommonQuery,
        response: webResponses(LegalDocument),
      },
    },
    async (request) => {
      const { kind, id } = request.params;
      if (!isKind(kind)) throw new PassportError('notFound', { kind });
      const versions = await app.db
        .selectFrom('legal_documents')
        .select(['id', 'published_at'])
        .where('kind', '=', kind)
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const wanted = id === 'latest' ? versions[0]?.id : id;
      const row =
        wanted === undefined
          ? undefined
          : await app.db
              .selectFrom('legal_documents')
              .selectAll()
              .where('kind', '=', kind)
              .where('id', '=', wanted)
              .executeTakeFirst();
      if (!row) throw new PassportError('notFound', { kind, id });
      return webSuccess({
        kind,
        id: row.id,
        published_at: Number(row.published_at),
        title: { zh: row.title_zh, en: row.title_en },
        body: { zh: row.body_zh, en: row.body_en },
        versions: versions.map((v) => ({ id: v.id, published_at: Number(v.published_at) })),
      });
    },
  );
};

export default legal;
