// The authentication matrix of the token API's operations (security/auth-matrix-checks.ts).
import { authMatrixChecks } from './auth-matrix-checks.ts';

authMatrixChecks('token');
