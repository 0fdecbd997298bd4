import type { CaptchaLoaderOptions } from '@portico/captcha-loader';
import { it } from 'vitest';
import {
  type captchaEvents,
  createMonitor,
  type DocumentLike,
  type FetchLike,
  type NavigatorLike,
  type PerformanceObserverConstructor,
  type StorageLike,
  type WindowLike,
} from '../src/index';

it('the real window, document, navigator, storage, fetch and PerformanceObserver fit the monitor', () => {
  // Plain assignments: they compile only if the DOM's types fit the monitor's structural ones.
  const useWindow = (window: Window): WindowLike => window;
  const useDocument = (document: Document): DocumentLike => document;
  const useNavigator = (navigator: Navigator): NavigatorLike => navigator;
  const useStorage = (storage: Storage): StorageLike => storage;
  const useFetch = (fetch: typeof globalThis.fetch): FetchLike => fetch;
  const useObserver = (observer: typeof PerformanceObserver): PerformanceObserverConstructor => observer;
  void [useWindow, useDocument, useNavigator, useStorage, useFetch, useObserver, createMonitor];
});

it("the captcha collector's hooks are the loader's", () => {
  const options = (collector: ReturnType<typeof captchaEvents>): CaptchaLoaderOptions => ({
    aid: 1128,
    ...collector.hooks,
  });
  void options;
});
