import type { CaptchaSubtype } from '../../protocol';

/** What the client gets to draw a puzzle: images as data URLs and the prompt. Never the answer. */
export interface PuzzleView {
  /** The main picture (PNG data URL). */
  image: string;
  /** Its size in pixels; answers are given in these coordinates. */
  width: number;
  height: number;
  /** slide: the piece to drag (PNG data URL), its size and its fixed top. */
  piece?: string;
  piece_width?: number;
  piece_height?: number;
  piece_y?: number;
  /** 3d: what to click, in the request's language. */
  prompt?: string;
  /** text: how many characters to type. */
  length?: number;
}

/** The expected answer; it stays on the server (in the store), never in a response. */
export type PuzzleAnswer =
  | { kind: 'slide'; x: number; decoys?: number[] }
  | { kind: 'text'; text: string }
  | { kind: 'whirl'; angle: number }
  | { kind: '3d'; x: number; y: number; r: number }
  /** The accessible route: no picture; passes with its proof of work once the cooldown is over. */
  | { kind: 'accessible'; readyAt: number }
  /** A third-party provider instead of our picture (CAPTCHA_PROVIDER_MODE=instead). */
  | { kind: 'provider' };

/** A person's answer as it arrives at /vc/verify; each kind reads its own fields. */
export interface Submission {
  x?: number | undefined;
  y?: number | undefined;
  trace?: string | undefined;
  text?: string | undefined;
  angle?: number | undefined;
}

export interface Puzzle {
  view: PuzzleView;
  answer: PuzzleAnswer;
  /** 3d: the prompt in each language (pooled puzzles are drawn before the request's language is known). */
  prompts?: { zh: string; en: string };
}

export interface PuzzleKind {
  subtype: CaptchaSubtype;
  generate(language: 'zh' | 'en'): Promise<Puzzle>;
  /** True when the submission solves the puzzle whose answer this is. */
  check(answer: PuzzleAnswer, submission: Submission): boolean;
  /**
   * True when a wrong answer is one a script makes and a person does not (a slide dropped on a decoy
   * gap): the puzzle dies at once instead of leaving tries.
   */
  fatal?(answer: PuzzleAnswer, submission: Submission): boolean;
  /**
   * Tries per puzzle when fewer than `puzzleMaxTries`: where a blind guess has a fair chance (a turn
   * within ±8° of 360°, a drop within ±5 px of ~250), each try is a guess a script gets for free.
   */
  maxTries?: number;
}
