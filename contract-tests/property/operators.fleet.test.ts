// The operators of the negative space on the fleet API's operations (property/operators.ts).
import { operatorChecks } from './operators.ts';
import { questionChecks } from './questions.ts';

operatorChecks('fleet');
questionChecks('fleet');
