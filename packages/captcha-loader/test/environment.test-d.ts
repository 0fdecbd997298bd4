import { it } from 'vitest';
import type { DocumentLike, FetchLike } from '../src/index';

it('the real document, script element and fetch fit the shapes the loader asks for', () => {
  // Plain assignments: they compile only if the DOM's types fit the loader's structural ones.
  const useDocument = (document: Document): DocumentLike => document;
  const useFetch = (fetch: typeof globalThis.fetch): FetchLike => fetch;
  void [useDocument, useFetch];
});
