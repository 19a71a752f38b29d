// The operators of the negative space on the token API's operations (property/operator-sweep.ts). They are most of a
// run's requests (about 1,500 with the questions and the crossings), in one file as every API's are: the workers take
// their requests' slots from one pool of the ceiling in flight (send/flight-pool.ts), so one worker sending them all
// keeps the pool as full as three did, and leaves the others free for the files that wait on round trips.
import { crossingChecks } from './crossings.ts';
import { operatorChecks } from './operator-sweep.ts';
import { questionChecks } from './questions.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();

operatorChecks(run, 'token');
questionChecks(run, 'token');
crossingChecks(run, 'token');
