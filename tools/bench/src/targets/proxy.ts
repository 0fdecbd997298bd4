// A round-robin TCP proxy on loopback, in front of several passport server processes: each incoming
// connection goes to the next upstream in turn and stays there (as a layer-4 balancer does; the load
// generator's keep-alive connections are spread evenly). It only copies bytes, so its own CPU is the
// price of the balancer, reported beside the servers'.

import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { serveParent } from '../ipc.ts';

const upstreams = (process.env.BENCH_UPSTREAMS ?? '').split(',').filter(Boolean).map(Number);
if (!upstreams.length) throw new Error('BENCH_UPSTREAMS: the ports to balance over');
let next = 0;
const server = net.createServer((client) => {
  const upstream = net.connect(upstreams[next++ % upstreams.length] as number, '127.0.0.1');
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  for (const socket of [client, upstream]) {
    socket.on('error', end);
    socket.on('close', end);
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
serveParent((server.address() as AddressInfo).port, {
  cpu: () => {
    const all = process.cpuUsage();
    return { eventLoop: 0, process: all.user + all.system };
  },
});
