import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassportError } from '../../errors';
import { type PendingReplies, pendingReplies } from '../../lib/replies';
import type { CaptchaSubtype } from '../../protocol';
import type { Puzzle } from './puzzle';
import type { RenderReply, RenderRequest } from './render-worker';

/**
 * One render process per server process, shared by every server instance built in it (tests build
 * thousands): started by the first render, not by buildServer, and stopped when the last instance that
 * leased it closes. It runs at the lowest CPU priority (nice 19), so under load it gets only the CPU
 * that the event loop, argon2 and the database leave idle: a puzzle flood slows the puzzles, not the
 * sign-ins. An idle process holds nothing open: its handle and channel are referenced only while a
 * render is in flight.
 *
 * When it dies, the renders in flight (and any asked for within RESTART_DELAY_MS) are refused with
 * CHALLENGE_BUSY; the next render after that starts another.
 */

/** A render not answered after this long is given up, and the process (stuck) killed. */
export const RENDER_TIMEOUT_MS = 30_000;
/** After the process died, renders are refused this long before another is started (no crash loop). */
export const RESTART_DELAY_MS = 1_000;
/**
 * The lowest priority there is: the render process only takes CPU nobody else wants. A lease may ask
 * for another (the `renderNiceness` limit; the test suite, whose workers keep both cores busy at normal
 * priority, asks for 0): the process takes the niceness of the render it is asked for. Lowering it again
 * needs privileges a server may not have; then it stays where it is.
 */
export const RENDER_NICENESS = 19;

/** The worker is the .ts file beside this one when the server runs from its sources, the built .js otherwise. */
const workerPath = fileURLToPath(
  new URL(`./render-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

interface Running {
  child: ChildProcess;
  /** Settles once the worker has loaded and listens. */
  ready: Promise<void>;
  pending: PendingReplies<Puzzle>;
  /** Renders asked of it and not yet answered (waiting for `ready` included). */
  busy: number;
  /** Its niceness now (what the last render asked for). */
  niceness: number;
  stopping: boolean;
  exited: Promise<void>;
}

let current: Running | undefined;
let leases = 0;
let diedAt = Number.NEGATIVE_INFINITY;

function holdOpen(running: Running, hold: boolean): void {
  if (hold) {
    running.child.ref();
    running.child.channel?.ref();
  } else {
    running.child.unref();
    running.child.channel?.unref();
  }
}

/** Sets the process's niceness; a platform or a user that may not is left at the one it has. */
function setNiceness(running: Running, niceness: number): void {
  if (running.niceness === niceness || running.child.pid === undefined) return;
  try {
    setPriority(running.child.pid, niceness);
    running.niceness = niceness;
  } catch {
    // Raising one's own child's niceness is always allowed on Linux and macOS, lowering it only with
    // privileges; if refused, the process still renders, at the priority it has.
  }
}

function start(niceness: number): Running {
  // No execArgv: the server's flags (an inspector port, say) are not the worker's.
  const child = fork(workerPath, [], { execArgv: [], serialization: 'advanced' });
  let onReady: () => void = () => {};
  let onGone: (error: unknown) => void = () => {};
  let onExit: () => void = () => {};
  const running: Running = {
    child,
    ready: new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onGone = reject;
    }),
    pending: pendingReplies<Puzzle>(),
    busy: 0,
    niceness: 0,
    stopping: false,
    exited: new Promise<void>((resolve) => {
      onExit = resolve;
    }),
  };
  // Renders hear it when the process goes before it is ready; one stopped unused must not leave an
  // unhandled rejection behind.
  running.ready.catch(() => {});
  setNiceness(running, niceness);
  let gone = false;
  const die = (cause: unknown) => {
    if (gone) return;
    gone = true;
    if (current === running) current = undefined;
    if (!running.stopping) diedAt = performance.now();
    const busy = new PassportError('challengeBusy', {}, { cause });
    onGone(busy);
    running.pending.failAll(busy);
    onExit();
  };
  child.on('message', (reply: RenderReply) => {
    if ('ready' in reply) return onReady();
    running.pending.settle(
      reply.id,
      'puzzle' in reply
        ? { value: reply.puzzle }
        : { error: new Error(`the render process failed a puzzle: ${reply.error}`) },
    );
  });
  // 'error': it could not be started (or signalled); 'exit' may or may not follow, so both end it.
  child.on('error', die);
  child.on('exit', (code, signal) => die(new Error(`the render process exited (${signal ?? code})`)));
  holdOpen(running, false);
  return running;
}

async function render(kind: CaptchaSubtype, niceness: number): Promise<Puzzle> {
  if (!current) {
    if (performance.now() - diedAt < RESTART_DELAY_MS) throw new PassportError('challengeBusy');
    current = start(niceness);
  }
  const running = current;
  setNiceness(running, niceness);
  running.busy++;
  holdOpen(running, true);
  // Killing the process settles everything waiting on it (its start included), as CHALLENGE_BUSY.
  const timer = setTimeout(() => running.child.kill('SIGKILL'), RENDER_TIMEOUT_MS);
  try {
    await running.ready;
    return await running.pending.ask((id) => {
      const request: RenderRequest = { id, kind };
      running.child.send(request, (error) => {
        if (error)
          running.pending.settle(id, { error: new PassportError('challengeBusy', {}, { cause: error }) });
      });
    });
  } finally {
    clearTimeout(timer);
    running.busy--;
    if (!running.busy) holdOpen(running, false);
  }
}

async function stop(): Promise<void> {
  const running = current;
  if (!running) return;
  running.stopping = true;
  current = undefined;
  running.child.kill();
  await running.exited;
}

/** A server instance's use of the render process. */
export interface RenderLease {
  render(kind: CaptchaSubtype): Promise<Puzzle>;
  /** Ends this lease; the last one ends the process. */
  release(): Promise<void>;
}

/** Leases the render process (starts nothing: the first render does), to render at this niceness. */
export function leaseRenderProcess(niceness = RENDER_NICENESS): RenderLease {
  leases++;
  let released = false;
  return {
    render: (kind) => render(kind, niceness),
    release() {
      if (released) return Promise.resolve();
      released = true;
      leases--;
      return leases ? Promise.resolve() : stop();
    },
  };
}

/** The render process's id while one runs (tests). */
export const renderProcessId = (): number | undefined => current?.child.pid;
