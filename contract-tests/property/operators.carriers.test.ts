// The operators of the negative space on the carriers API's operations (property/operator-sweep.ts).
import { operatorChecks } from './operator-sweep.ts';

operatorChecks('carriers');
