import { workerData } from 'node:worker_threads';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

/**
 * The password strength estimator, in a worker thread of its own (./strength.ts runs the pool): a
 * crafted 32-character input costs it 0.4–1.3 s of CPU, which on the server's event loop would stall
 * every other request for as long. Self-contained on purpose: the worker loads this file alone.
 */

// Built once per worker (~200 ms for the dictionaries). No translations: the feedback stays as the
// estimator's keys, which the pages translate.
const estimator = new ZxcvbnFactory({
  graphs: adjacencyGraphs,
  dictionary: { ...commonDictionary, ...englishDictionary },
  maxLength: (workerData as { maxLength: number }).maxLength,
  l33tMaxSubstitutions: (workerData as { l33tMaxSubstitutions: number }).l33tMaxSubstitutions,
});

export interface Estimate {
  score: number;
  warning: string | null;
  suggestions: string[];
}

export default function estimate({ password, words }: { password: string; words: string[] }): Estimate {
  const result = estimator.check(password, words);
  return { score: result.score, warning: result.feedback.warning, suggestions: result.feedback.suggestions };
}
