// The operators of the negative space on the token API's operations (property/operators.ts).
import { operatorChecks } from './operators.ts';

operatorChecks('token');
