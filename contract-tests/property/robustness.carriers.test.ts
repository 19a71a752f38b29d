// Robustness from the spec for the carriers API's operations (property/robustness-checks.ts).
import { robustnessChecks } from './robustness-checks.ts';

robustnessChecks('carriers');
