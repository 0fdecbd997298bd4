import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SAMPLING, SESSION_KEY } from '../src/index';
import { SAMPLING_KINDS } from '../src/sampling';
import { memoryStorage, sequence, setup, step } from './fakes';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const pageView = { navigation: 'load', from: '' } as const;

describe('sampling', () => {
  it("holds the spec's rates (§9), and 1 for the funnel and the loader", () => {
    expect(DEFAULT_SAMPLING).toEqual({
      session: 1,
      page_view: 0.01,
      resource_error: 0.1,
      http: 0.01,
      resource: 0.1,
      js_error: 1,
      error_trace: 1,
      web_vital: 0.1,
      captcha: 1,
      funnel: 1,
    });
  });

  it('decides each kind once when the session starts, by comparing one random number with its rate', () => {
    // One number for each half of the id (4), then one per kind with a rate strictly between 0 and 1,
    // in the order of DEFAULT_SAMPLING: page_view, resource_error, http, resource, web_vital.
    const random = sequence(0.5, 0.5, 0.5, 0.5, 0.009, 0.2, 0.5, 0.05, 0.1);
    const { monitor } = setup({ random });
    expect(Object.fromEntries(SAMPLING_KINDS.map((kind) => [kind, monitor.sampled(kind)]))).toEqual({
      session: true,
      page_view: true, // 0.009 < 0.01
      resource_error: false, // 0.2 ≥ 0.1
      http: false,
      resource: true,
      web_vital: false, // 0.1 is not below 0.1
      js_error: true,
      error_trace: true,
      captcha: true,
      funnel: true,
    });
  });

  it('keeps the decisions for the whole session: the next page of the tab reads them from storage', () => {
    const storage = memoryStorage();
    const first = setup({ storage, random: () => 0.99 }).monitor;
    expect(first.sampled('page_view')).toBe(false);
    expect(first.session.isNew).toBe(true);
    // The next page load would draw "yes" for everything, but the session has decided already.
    const next = setup({ storage, random: () => 0 }).monitor;
    expect(next.session).toEqual({ id: first.session.id, isNew: false });
    expect(next.sampled('page_view')).toBe(false);
    expect(next.record('page_view', pageView)).toBe(false);
    expect(JSON.parse(storage.getItem(SESSION_KEY) ?? '{}')).toMatchObject({
      id: first.session.id,
      sampled: { session: true, page_view: false, js_error: true },
    });
  });

  it('a session left out (rate 0) sends nothing at all, whatever the kind', () => {
    const { monitor, sink } = setup({ sampling: { session: 0 } });
    expect(step(monitor)).toBe(false);
    expect(monitor.record('page_view', pageView)).toBe(false);
    monitor.flush();
    expect(sink.sent).toEqual([]);
  });

  it('stamps each event with the probability it was sampled with, session rate included', () => {
    const { monitor, sink } = setup({ sampling: { session: 0.5, page_view: 0.2 } });
    monitor.record('page_view', pageView);
    step(monitor);
    monitor.flush();
    expect(sink.events.map((event) => [event.kind, event.rate])).toEqual([
      ['page_view', 0.1],
      ['funnel', 0.5],
    ]);
  });

  it('samples a failed SDK call as an error trace (rate 1), so failures are seen when calls are not', () => {
    const { monitor, sink } = setup({ sampling: { http: 0 } });
    const call = {
      method: 'POST',
      path: '/passport/web/sms_login/',
      status: 200,
      duration_ms: 40,
      log_id: '',
    };
    expect(monitor.record('http', { ...call, error_code: 0 })).toBe(false);
    expect(monitor.record('http', { ...call, error_code: 1105 }, { sampleAs: 'error_trace' })).toBe(true);
    monitor.flush();
    expect(sink.events).toMatchObject([{ kind: 'http', error_code: 1105, rate: 1 }]);
  });

  it('decides a kind the stored session does not know yet (a newer monitor), keeping the others', () => {
    const storage = memoryStorage();
    storage.setItem(
      SESSION_KEY,
      JSON.stringify({ id: 'abc', sampled: { session: true, page_view: true }, seen: [] }),
    );
    const { monitor } = setup({ storage, random: () => 0.99 });
    expect(monitor.session).toEqual({ id: 'abc', isNew: false });
    expect(monitor.sampled('page_view')).toBe(true);
    expect(monitor.sampled('resource')).toBe(false);
  });

  it('starts a new session over unreadable storage, and runs without any', () => {
    const storage = memoryStorage();
    storage.setItem(SESSION_KEY, '{not json');
    expect(setup({ storage }).monitor.session.isNew).toBe(true);
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const { monitor, sink } = setup({ storage: refusing });
    step(monitor);
    monitor.flush();
    expect(sink.events).toHaveLength(1);
    expect(setup({ storage: null }).monitor.session.isNew).toBe(true);
  });

  it('refuses a rate that is not a probability, or an unknown kind, with the fix in the message', () => {
    expect(() => setup({ sampling: { http: 2 } })).toThrow(
      /sampling\.http is 2\. Give a probability from 0 to 1/,
    );
    expect(() => setup({ sampling: { clicks: 1 } as never })).toThrow(/unknown sampling kind 'clicks'/);
  });
});
