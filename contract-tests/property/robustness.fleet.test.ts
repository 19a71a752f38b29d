// Robustness from the spec for the fleet API's operations (property/robustness-checks.ts).
import { robustnessChecks } from './robustness-checks.ts';

robustnessChecks('fleet');
