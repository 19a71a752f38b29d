// An injectable sleep for the retry policy that records each requested wait and returns at once, so backoff is checked exactly.
export function recordingSleep(): { waits: number[]; sleep: (ms: number, signal: AbortSignal) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      signal.throwIfAborted();
      waits.push(ms);
    },
  };
}
