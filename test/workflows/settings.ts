// The one time setting of the workflows project: every test and hook may take this long. A Respect run takes about a
// second per workflow on a busy 2-core machine, a sandbox or the mock a few seconds to start; this is far above both.
export const TIMEOUT_MS = 180_000;
