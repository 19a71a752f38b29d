// The authentication matrix of the carriers API's operations (security/auth-matrix-checks.ts).
import { authMatrixChecks } from './auth-matrix-checks.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();

authMatrixChecks(run, 'carriers');
