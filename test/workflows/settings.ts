// The time setting of the workflows project: every test and hook may take this long (times LP_TEST_SLOWDOWN,
// config/test-waits.ts). A Respect run takes about a second per workflow on a busy 2-core machine, a sandbox or the mock
// a few seconds to start; this is far above both.
import { testWaitMs } from '../../config/test-waits.ts';

export const TIMEOUT_MS = testWaitMs(180_000);
