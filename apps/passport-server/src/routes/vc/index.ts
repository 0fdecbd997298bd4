import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deviceOf } from '../../domain/risk/risk';
import { rateLimitKey } from '../../lib/ip';
import { languageOf } from '../../lib/language';
import { paths, webSuccess } from '../../protocol';
import { challengeSchema, scriptSchema, settingSchema, verifySchema } from '../../schemas/vc';
import { loadChallengeScript } from './script';

/** The challenge service under /vc: settings, puzzles, answers and the script (primary and backup). */
const vc: FastifyPluginAsyncTypebox = async (app) => {
  const script = loadChallengeScript();

  app.get(paths.vc.setting, { schema: settingSchema }, async () =>
    webSuccess({ sdk_url: paths.vc.sdkPrimary, backup_urls: [paths.vc.sdkBackup], version: script.version }),
  );

  app.post(paths.vc.challenge, { schema: challengeSchema }, async (request) => {
    const { view, ...rest } = await app.challenge.draw(
      request.body.challenge_id,
      languageOf(request),
      { ip: rateLimitKey(request.ip), device: deviceOf(request) },
      {
        accessible: request.body.mode === 'accessible',
        withoutProvider: request.body.without_provider === '1',
      },
    );
    return webSuccess({ ...rest, ...view });
  });

  app.post(paths.vc.verify, { schema: verifySchema }, async (request) => {
    const { challenge_id, x, y, trace, text, angle, pow, provider_token } = request.body;
    const result = await app.challenge.verify(
      challenge_id,
      { x, y, trace, text, angle, pow, provider_token, remoteip: request.ip },
      app.challenge.bindingOf(request),
      { ip: rateLimitKey(request.ip), device: deviceOf(request) },
    );
    return webSuccess({ challenge_id, ...result });
  });

  for (const url of [paths.vc.sdkPrimary, paths.vc.sdkBackup]) {
    app.get(url, { schema: scriptSchema }, async (_request, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=600')
        .header('etag', script.etag)
        // Pages on other sites load it with <script src>.
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(script.text),
    );
  }
};

export default vc;
