// A free TCP port on a loopback host, for processes (Prism, dredd's proxy, a redirect listener) that cannot be told to pick one.
import { createServer } from 'node:net';

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error(`no free port on ${host}`))));
    });
  });
}
