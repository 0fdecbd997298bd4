import {
  type AccountCall,
  type AccountHooks,
  type AccountPlugin,
  accountCall,
  isAccountError,
} from '@portico/account-sdk';
import { isSuccess, LOG_ID_HEADER } from '@portico/account-sdk/protocol';
import type { Monitor } from './monitor';
import { sanitizeUrl } from './privacy';

/** Resolves relative call paths without a page, so a path is sent as a path even in a worker. */
const PATH_BASE = 'https://calls.invalid/';

/**
 * Records each call of an account client as an `http` event: method, path (never its query or
 * payload), status, duration of the last attempt, error code and log id. Successful calls are sampled
 * at the `http` rate, failed ones (envelope, status, network, timeout, abort) at the `error_trace`
 * rate. `client.use(monitorPlugin(monitor))`, after the other plugins, so the monitor sees what they
 * made of each response (a challenge passed, a second verification completed).
 */
export function monitorPlugin(monitor: Monitor): AccountPlugin {
  return {
    name: 'monitor',
    setup(): AccountHooks {
      if (!monitor.sampled('http') && !monitor.sampled('error_trace')) return {};
      /** When the current attempt of each call started. */
      const started = new WeakMap<AccountCall, number>();
      const start = (state: Parameters<typeof accountCall>[0]) => {
        started.set(accountCall(state), monitor.clock.now());
      };
      const record = (
        call: AccountCall | undefined,
        fields: { status: number; error_code: number; log_id: string },
      ) => {
        const config = call?.config;
        if (!config) return;
        const began = call ? started.get(call) : undefined;
        const path = sanitizeUrl(config.path.replace(/[?#].*$/, '').replace('{aid}', ':aid'), {
          base: PATH_BASE,
        });
        monitor.record(
          'http',
          {
            method: config.method,
            path,
            ...fields,
            duration_ms: began === undefined ? 0 : Math.max(0, Math.round(monitor.clock.now() - began)),
          },
          fields.error_code === 0 ? {} : { sampleAs: 'error_trace' },
        );
      };
      return {
        beforeRequest: [start],
        beforeRetry: [start],
        afterResponse: [
          async (state) => {
            // Failures are recorded once the call has settled, in beforeError; this sees successes.
            if (!monitor.sampled('http')) return;
            try {
              const call = accountCall(state);
              if (!isSuccess(call.config.envelope, await call.body(state.response))) return;
              const log_id = state.response.headers.get(LOG_ID_HEADER) ?? '';
              record(call, { status: state.response.status, error_code: 0, log_id });
            } catch {
              // Monitoring never fails a call.
            }
          },
        ],
        beforeError: [
          (state) => {
            try {
              const { error } = state;
              const known = isAccountError(error);
              record(accountCall(state), {
                status: known ? (error.status ?? 0) : 0,
                error_code: known && error.error_code !== 0 ? error.error_code : -1,
                log_id: known ? error.log_id : '',
              });
            } catch {
              // Monitoring never fails a call.
            }
            return state.error;
          },
        ],
      };
    },
  };
}
