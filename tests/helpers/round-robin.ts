import net from 'node:net';

/**
 * A TCP front that hands each new connection to the next of `ports` in turn, bytes untouched:
 * two service processes behind one address, as a load balancer puts them.
 */
export async function roundRobin(ports: number[]): Promise<{ port: number; close(): Promise<void> }> {
  let next = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(ports[next++ % ports.length], '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => (socket === client ? upstream : client).destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
