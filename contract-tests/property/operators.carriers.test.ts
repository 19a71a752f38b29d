// The operators of the negative space on the carriers API's operations (property/operators.ts).
import { operatorChecks } from './operators.ts';

operatorChecks('carriers');
