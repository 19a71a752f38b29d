// Hands each worker's test files their run (send/run.ts): the one caller of currentRun. A test file (and the setup
// file) takes the run once at its top and passes it, or the piece a helper needs, down: nothing below asks for it.
import { currentRun, type Run } from '../send/run.ts';

/** This worker's run, made from the settings the runner gave the worker when first asked for. */
export const workerRun = (): Run => currentRun();
