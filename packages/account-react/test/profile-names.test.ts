import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { recommendedNamesQueryOptions } from '../src';
import { fakePassport, ok } from './support/fake-passport';

const PATH = '/web/user/settings/recommend_name/';

describe('recommendedNamesQueryOptions', () => {
  it('asks in the page’s language, each language its own cache entry', async () => {
    const passport = fakePassport({
      [PATH]: ({ query }) => ok({ names: [query.language === 'en' ? 'Quiet Otter12' : '安静的海豚12'] }),
    });
    const queryClient = new QueryClient();
    // The client was made in Chinese; the page switched to English without a reload.
    const zh = await queryClient.fetchQuery(recommendedNamesQueryOptions(passport.client));
    const en = await queryClient.fetchQuery(recommendedNamesQueryOptions(passport.client, 'en'));
    expect(zh.names).toEqual(['安静的海豚12']);
    expect(en.names).toEqual(['Quiet Otter12']);
    expect(passport.to(PATH).map((r) => r.query.language)).toEqual(['zh', 'en']);
  });
});
