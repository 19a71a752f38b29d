// The authentication matrix of the fleet API's operations (security/auth-matrix-checks.ts).
import { authMatrixChecks } from './auth-matrix-checks.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();

authMatrixChecks(run, 'fleet');
