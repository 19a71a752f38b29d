// The operators of the negative space on the token API's operations (property/operator-sweep.ts): the 2. of three files the
// token API's checks are dealt to. They are most of a run's requests (80 checks, about 1,200 requests): in one file,
// one worker sent them all, within its share of the requests in flight, while the others idled.
import { crossingChecks } from './crossings.ts';
import { operatorChecks } from './operator-sweep.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();

operatorChecks(run, 'token', { part: 2, of: 3 });
crossingChecks(run, 'token');
