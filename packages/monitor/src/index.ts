/**
 * `@portico/monitor`: batched, sampled monitoring for Portico pages (spec §9) — page views, errors,
 * resources, web vitals, the challenge loader, the account SDK's calls and the sign-in funnel — with
 * no personal data leaving the page.
 */
export { monitorPlugin } from './account-plugin';
export { type CaptchaCollector, type CaptchaHooks, captchaEvents } from './collectors/captcha';
export { jsErrors } from './collectors/js-errors';
export { pageViews } from './collectors/page-views';
export { resourceErrors } from './collectors/resource-errors';
export {
  type PerformanceEntryLike,
  type PerformanceObserverConstructor,
  type PerformanceObserverLike,
  type ResourceEntryLike,
  type ResourceTimingOptions,
  resourceTiming,
} from './collectors/resource-timing';
export { sessionStart } from './collectors/session-start';
export { type WebVitalsOptions, type WebVitalsReporters, webVitals } from './collectors/web-vitals';
export type {
  Clock,
  DocumentLike,
  EventTargetLike,
  FetchLike,
  HistoryLike,
  MonitorEnvironment,
  NavigatorLike,
  StorageLike,
  WindowLike,
} from './environment';
export {
  type EventBase,
  type EventFields,
  type EventKind,
  FUNNEL_STEPS,
  type FunnelFields,
  type FunnelStep,
  type MonitorBatch,
  type MonitorEvent,
} from './events';
export {
  BATCH_SIZE,
  type Collector,
  createMonitor,
  FLUSH_WAIT_MS,
  type Monitor,
  type MonitorOptions,
  type RecordOptions,
} from './monitor';
export { sanitizeUrl, scrubText, type UrlRules } from './privacy';
export { DEFAULT_SAMPLING, type SamplingKind } from './sampling';
export { SESSION_KEY } from './session';
export {
  type BeaconTransportOptions,
  beaconTransport,
  DEFAULT_COLLECTOR_URL,
  type Transport,
} from './transport';
