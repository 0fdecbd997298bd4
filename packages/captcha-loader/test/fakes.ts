import { vi } from 'vitest';
import type { ChallengeApi, Clock, DocumentLike, FetchLike, ScriptElementLike } from '../src/index';

/** A `<script>` the test settles by hand: `loads()`, `fails()`, or neither (it hangs). */
export class FakeScript implements ScriptElementLike {
  src = '';
  async = false;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  removed = false;

  constructor(private readonly page: FakePage) {}

  /** The script runs (registering `api` on the page's global, unless told not to) and fires `load`. */
  async loads(api: unknown = this.page.api): Promise<void> {
    if (api !== undefined) this.page.window[this.page.globalName] = api;
    this.onload?.();
    await settle();
  }

  /** Fires `error`, then lets the loader react (e.g. add the next candidate). */
  async fails(): Promise<void> {
    this.onerror?.();
    await settle();
  }

  remove(): void {
    this.removed = true;
  }
}

/** A fake document whose `createElement('script')` and `head.appendChild` the test controls. */
export class FakePage implements DocumentLike {
  readonly window: Record<string, unknown> = {};
  readonly defaultView = this.window;
  readonly scripts: FakeScript[] = [];
  readonly api: ChallengeApi = {
    show: vi.fn(async (options) => ({ status: 'passed' as const, challengeId: options.challengeId })),
  };
  readonly head = {
    appendChild: (node: FakeScript) => {
      this.scripts.push(node);
      return node;
    },
  };

  constructor(readonly globalName = 'PorticoChallenge') {}

  createElement(_tag: 'script'): FakeScript {
    return new FakeScript(this);
  }

  /** The script added most recently. */
  get lastScript(): FakeScript {
    const script = this.scripts.at(-1);
    if (!script) throw new Error('no script has been added yet');
    return script;
  }

  get sources(): string[] {
    return this.scripts.map((script) => script.src);
  }
}

export const SETTINGS = {
  sdk_url: 'https://static.example/challenge.js',
  backup_urls: ['https://backup.example/challenge.js'],
  version: '1.0.0',
};

export const success = (data: unknown) => ({
  ok: true,
  status: 200,
  json: async () => ({ message: 'success', data }),
});

/** A `fetch` that answers `/vc/setting` with the given answers in turn (the last one repeats). */
export function fakeFetch(
  ...answers: Array<'hang' | 'network' | { ok: boolean; status: number; json(): Promise<unknown> }>
) {
  let call = 0;
  return vi.fn<FetchLike>((_url, init) => {
    const answer = answers[Math.min(call++, answers.length - 1)] ?? success(SETTINGS);
    if (answer === 'network') return Promise.reject(new TypeError('Failed to fetch'));
    if (answer === 'hang') {
      return new Promise((_resolve, reject) => {
        init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    return Promise.resolve(answer);
  });
}

/** The (faked) global timers, handed in as the loader's clock. */
export const fakeClock = (): Clock => ({
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

/** Lets pending promise callbacks (the settings fetch) run. */
export const settle = () => vi.advanceTimersByTimeAsync(0);
