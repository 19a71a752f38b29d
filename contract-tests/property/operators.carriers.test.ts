// The operators of the negative space on the carriers API's operations (property/operator-sweep.ts).
import { crossingChecks } from './crossings.ts';
import { operatorChecks } from './operator-sweep.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();

operatorChecks(run, 'carriers');
crossingChecks(run, 'carriers');
