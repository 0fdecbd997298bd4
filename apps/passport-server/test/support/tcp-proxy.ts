import { createServer, type Server, Socket } from 'node:net';

/**
 * A TCP proxy on loopback in front of a real service (PostgreSQL, Redis), to simulate outages without
 * touching the shared service:
 * - `forward` (the start): bytes flow both ways;
 * - `cut`: every open connection is reset, and new ones are reset as soon as they arrive (the service
 *   crashed or restarts, as its clients see it);
 * - `stall`: open connections stay open but nothing flows any more, and new ones are accepted and never
 *   answered (a network partition: only the client's own timeouts help).
 * Back to `forward`, connections stalled before are reset (the far side forgot them) and new ones flow.
 */
export type ProxyMode = 'forward' | 'cut' | 'stall';

export interface TcpProxy {
  readonly port: number;
  /** `127.0.0.1:port`, for a URL. */
  readonly address: string;
  readonly mode: ProxyMode;
  /** Connections accepted so far, whatever became of them. */
  readonly accepted: number;
  set(mode: ProxyMode): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
  stalled: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let mode: ProxyMode = 'forward';
  let accepted = 0;

  const stall = (pair: Pair) => {
    pair.stalled = true;
    pair.client.unpipe();
    pair.upstream?.unpipe();
    // Read and drop: the sender sees its bytes leave, and no answer ever comes.
    pair.client.removeAllListeners('data');
    pair.client.on('data', () => {});
    pair.upstream?.removeAllListeners('data');
    pair.upstream?.on('data', () => {});
  };
  const reset = (pair: Pair) => {
    pair.upstream?.destroy();
    pair.client.resetAndDestroy();
    pairs.delete(pair);
  };

  const server: Server = createServer((client) => {
    accepted += 1;
    client.on('error', () => {});
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: null, stalled: false };
    pairs.add(pair);
    client.on('close', () => {
      pairs.delete(pair);
      pair.upstream?.destroy();
    });
    if (mode === 'stall') {
      stall(pair);
      return;
    }
    const upstream = new Socket();
    pair.upstream = upstream;
    upstream.on('error', () => client.resetAndDestroy());
    upstream.on('close', () => {
      if (!pair.stalled) client.destroy();
    });
    upstream.connect(target.port, target.host);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    address: `127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    set(next) {
      mode = next;
      for (const pair of [...pairs]) {
        if (next === 'cut') reset(pair);
        else if (next === 'stall') stall(pair);
        else if (pair.stalled) reset(pair);
      }
    },
    async close() {
      for (const pair of [...pairs]) reset(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
