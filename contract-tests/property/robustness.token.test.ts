// Robustness from the spec for the token API's operations (property/robustness-checks.ts).
import { robustnessChecks } from './robustness-checks.ts';

robustnessChecks('token');
