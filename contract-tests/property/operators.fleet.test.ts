// The operators of the negative space on the fleet API's operations (property/operator-sweep.ts).
import { crossingChecks } from './crossings.ts';
import { operatorChecks } from './operator-sweep.ts';
import { questionChecks } from './questions.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();

operatorChecks(run, 'fleet');
questionChecks(run, 'fleet');
crossingChecks(run, 'fleet');
