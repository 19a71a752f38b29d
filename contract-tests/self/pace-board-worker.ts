// A worker thread for self/origin-pace.test.ts: joins the board the process's threads share, waits until it paces by
// the board of the thread id it is given, counts `count` requests on an origin there, and says so.
import { parentPort, workerData } from 'node:worker_threads';
import { boardMaker, sharedBoard } from '../send/pace-board.ts';

const { maker, key, count } = workerData as { maker: number; key: string; count: number };
const started = Date.now();
while (boardMaker() !== maker && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 5));
for (let i = 0; i < count; i++) sharedBoard().update(key, (slot) => slot.set('sent', slot.get('sent') + 1));
parentPort!.postMessage({ maker: boardMaker() });
