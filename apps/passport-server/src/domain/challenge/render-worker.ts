import { registerHooks } from 'node:module';
import sharp from 'sharp';
import type { CaptchaSubtype } from '../../protocol';
import type { Puzzle } from './puzzle';

/**
 * The render process (./render-process.ts forks it): builds puzzles — the SVG scenes in JavaScript and
 * sharp's PNG encoding — away from the server's event loop and its libuv thread pool, at the lowest
 * CPU priority, so a flood of puzzle requests takes only the CPU that sign-ins leave idle.
 *
 * Run from the sources (under vitest) Node strips the types itself but does not add the `.ts` the
 * sources' relative imports leave out: the hook below adds it. The built file needs no hook.
 */
if (import.meta.url.endsWith('.ts')) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        if (!/^\.\.?\//.test(specifier) || /\.[cm]?[jt]s$/.test(specifier)) throw error;
        return nextResolve(`${specifier}.ts`, context);
      }
    },
  });
}
const { puzzleKinds } = await import('./puzzles/index');

// One libvips thread: one render at a time is all the pool asks for, and more threads would only
// compete with each other for the idle CPU this process lives on.
sharp.concurrency(1);

export interface RenderRequest {
  id: number;
  kind: CaptchaSubtype;
}
/** A render's outcome, or (once, first) word that the process is ready for requests. */
export type RenderReply = { id: number; puzzle: Puzzle } | { id: number; error: string } | { ready: true };

process.on('message', async ({ id, kind }: RenderRequest) => {
  let reply: RenderReply;
  try {
    reply = { id, puzzle: await puzzleKinds[kind].generate('zh') };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  answer(reply);
});
// The server is gone (closed, or died): nothing will ask for a render again.
process.on('disconnect', () => process.exit(0));
// Requests sent before the listener above would be lost: the parent waits for this word.
answer({ ready: true });

/** Sends to the server; if it has gone meanwhile there is no one to render for, and nothing to do. */
function answer(reply: RenderReply): void {
  process.send?.(reply, (error: Error | null) => {
    if (error) process.exit(0);
  });
}
