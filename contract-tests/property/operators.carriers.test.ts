// The operators of the negative space on the carriers API's operations (property/operator-sweep.ts).
import { crossingChecks } from './crossings.ts';
import { operatorChecks } from './operator-sweep.ts';

operatorChecks('carriers');
crossingChecks('carriers');
