import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Each system under test runs in its own child process (its own event loop and libuv thread pool), so
 * the load generator in the parent never shares a thread with it. The parent calls named handlers in
 * the child over IPC (seeding, measuring argon2) and sends HTTP to the port the child reports.
 */

interface Call {
  id: number;
  name: string;
  arg: unknown;
}
interface Answer {
  id: number;
  value?: unknown;
  error?: string;
}
interface Ready {
  ready: true;
  port: number;
}

type Handler = (arg: never) => unknown;

/** In a child: answer the parent's calls, say where we listen, exit when the parent goes away. */
export function serveParent(
  port: number,
  handlers: Record<string, Handler>,
  onClose: () => Promise<void> = async () => {},
): void {
  const send = (message: Answer | Ready) => process.send?.(message);
  process.on('message', (call: Call) => {
    const handler = handlers[call.name];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`no handler ${call.name}`);
        return handler(call.arg as never);
      })
      .then(
        (value) => send({ id: call.id, value }),
        (error: unknown) =>
          send({
            id: call.id,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          }),
      );
  });
  process.on('disconnect', () => {
    onClose().finally(() => process.exit(0));
  });
  send({ ready: true, port });
}

/** A system under test, running in a child process. */
export class Target {
  private next = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  readonly name: string;
  readonly port: number;
  private readonly child: ChildProcess;

  private constructor(name: string, port: number, child: ChildProcess) {
    this.name = name;
    this.port = port;
    this.child = child;
    child.on('message', (message: Answer) => {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`${name}: ${message.error}`));
      else waiter.resolve(message.value);
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The child's process id (Valgrind's, when it runs under Valgrind: the same process). */
  get pid(): number {
    return this.child.pid ?? 0;
  }

  /**
   * Forks `targets/<file>` and waits until it listens (10 minutes at most: a loaded machine starts
   * slowly); `execArgv` adds Node flags; `wrapper` runs Node under another program (Valgrind: its path
   * and its arguments before Node's).
   */
  static start(
    name: string,
    file: string,
    env: Record<string, string> = {},
    execArgv: string[] = [],
    wrapper?: { path: string; args: string[] },
  ): Promise<Target> {
    const path = fileURLToPath(new URL(`./targets/${file}`, import.meta.url));
    const nodeArgs = [...process.execArgv, ...execArgv];
    const child = fork(path, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...env },
      ...(wrapper
        ? { execPath: wrapper.path, execArgv: [...wrapper.args, process.execPath, ...nodeArgs] }
        : { execArgv: nodeArgs }),
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${name} did not start within 10 minutes`));
      }, 600_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${code} before it was ready`));
      });
      child.on('message', function onReady(message: Ready) {
        if (!message.ready) return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.off('message', onReady);
        resolve(new Target(name, message.port, child));
      });
    });
  }

  call<T>(name: string, arg?: unknown): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, name, arg } satisfies Call);
    });
  }

  /** Disconnects (the child exits by itself) and kills it if it has not gone within 5 s. */
  stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      if (child.connected) child.disconnect();
      else child.kill('SIGTERM');
    });
  }
}
