import type { AccountClient, RequestOptions } from '../../src';

/** An AccountClient that records what calls ask for instead of sending it. */
export function recordingClient(source: AccountClient['source'] = 'web') {
  const sent: RequestOptions[] = [];
  const client: AccountClient = {
    aid: '1128',
    source,
    baseUrl: 'https://passport.example.com',
    language: 'zh',
    use: () => () => {},
    request: async (options) => {
      sent.push(options);
      return {} as never;
    },
  };
  return {
    client,
    sent,
    get last() {
      return sent.at(-1)!;
    },
  };
}
