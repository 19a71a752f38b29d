// The servers behind the mock and sandbox targets, for the runner and the scripts around it: tools/targets.ts starts
// them (through the one process helper, tools/processes.ts, whose RunningServer is the process; a TargetServer is the
// server with its LP_* settings).
import { MOCK_PLACEHOLDERS } from '../../config/environment.ts';

export { startMock, startSandbox, type TargetServer } from '../../tools/targets.ts';

/** Settings the Prism mock does not hand out: it accepts any credential value, so these are placeholders. */
export const MOCK_CREDENTIALS: Record<string, string> = MOCK_PLACEHOLDERS;
