// The operators of the negative space on the fleet API's operations (property/operator-sweep.ts).
import { crossingChecks } from './crossings.ts';
import { operatorChecks } from './operator-sweep.ts';
import { questionChecks } from './questions.ts';

operatorChecks('fleet');
questionChecks('fleet');
crossingChecks('fleet');
