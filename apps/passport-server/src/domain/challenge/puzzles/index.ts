import type { CaptchaSubtype } from '../../../protocol';
import type { PuzzleKind } from '../puzzle';
import { slide } from './slide';
import { text } from './text';
import { threeD } from './three-d';
import { whirl } from './whirl';

/** The four puzzle kinds, by the subtype the decision code names. */
export const puzzleKinds: Readonly<Record<CaptchaSubtype, PuzzleKind>> = {
  slide,
  text,
  '3d': threeD,
  whirl,
};
