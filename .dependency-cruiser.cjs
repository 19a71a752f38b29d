// `npm run lint:deps`: the direction of the kit's imports (see spec-core/README.md).
//   spec-core -> config -> sandbox / contract suite / tools -> thin scripts/ entry points -> tests
// CommonJS because dependency-cruiser loads its config with require() and the package is "type": "module".
/** One forbidden import: `from` files may not import `to` files. */
const forbid = (name, severity, comment, from, to) => ({ name, severity, comment, from: { path: from }, to: { path: to } });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'nothing-imports-scripts',
      'error',
      'scripts/ holds entry points: they parse arguments and call a module. Logic another part needs lives outside ' +
        'scripts/ (spec-core/, tools/, contract-tests/runner/), so the dependency never runs back into scripts/.',
      '^(?!scripts/)',
      '^scripts/',
    ),
    forbid(
      'nothing-imports-tests',
      'error',
      'test/ is the end of the flow: its helpers serve its tests only; what another part needs moves to spec-core/ or tools/.',
      '^(?!test/)',
      '^test/',
    ),
    forbid(
      'spec-core-imports-nothing-of-the-kit',
      'error',
      'spec-core is the bottom layer: every spec reader builds on it, so it may not depend on any of them.',
      '^spec-core/',
      '^(src|generated|config|tools|sandbox|contract-tests|scripts|test)/',
    ),
    forbid(
      'config-imports-only-spec-core',
      'error',
      "config/ is the kit's configuration (every LP_* variable) and command line: sandbox, suite, tools and scripts all " +
        'read it, so it may import nothing of theirs (only spec-core, for the repository root).',
      '^config/',
      '^(src|generated|tools|sandbox|contract-tests|scripts|test)/',
    ),
    forbid(
      'sandbox-imports-no-tools',
      'error',
      'tools/ starts and drives the sandbox; the sandbox reads its configuration from config/, never from tools/, so no ' +
        'arrow runs back up.',
      '^sandbox/',
      '^tools/',
    ),
    forbid(
      'client-stays-self-contained',
      'error',
      'src/ is the published client: it may import only itself, the generated types and its runtime dependency. ' +
        'spec-core and the tools would pull yaml and ajv into the package.',
      '^src/',
      '^(spec-core|config|tools|sandbox|contract-tests|scripts|test)/',
    ),
    forbid(
      'suite-model-is-pure',
      'error',
      'contract-tests/model/ is the model of the specs as data: the bundles, the operations registry, roles, credentials, ' +
        'valid requests. It reads no environment and sends nothing, so it imports nothing of the suite outside model/.',
      '^contract-tests/model/',
      '^contract-tests/(?!model/)',
    ),
    forbid(
      'suite-send-is-the-bottom',
      'error',
      "contract-tests/send/ sends: the run (target, transport, redactor, ledger), the one fetch, the model's requests. It hands each exchange " +
        'to whoever subscribed (the judge, wired by support/setup.ts) and imports nothing that judges, operates, reports or runs.',
      '^contract-tests/send/',
      '^contract-tests/(judge|operators|report|runner|support|self|fixtures|dredd|workflows|token|carriers|fleet|security|property|flows)/',
    ),
    forbid(
      'suite-judge-sits-on-send',
      'error',
      'contract-tests/judge/ judges exchanges: it builds on send/ and never imports the operators, the reports or the runner.',
      '^contract-tests/judge/',
      '^contract-tests/(operators|report|runner|support|self|fixtures|dredd|workflows|token|carriers|fleet|security|property|flows)/',
    ),
    forbid(
      'suite-operators-beside-judge',
      'error',
      'contract-tests/operators/ makes requests from the registry; the judge judges their answers like every other: neither imports the other.',
      '^contract-tests/operators/',
      '^contract-tests/(judge|report|runner|support|self|fixtures|dredd|workflows|token|carriers|fleet|security|property|flows)/',
    ),
    forbid(
      'suite-report-below-runner',
      'error',
      "contract-tests/report/ builds the run report from the ledger, the verdict and the workflows' results; the runner above it uses it, never the reverse.",
      '^contract-tests/report/',
      '^contract-tests/(operators|runner|support|self|fixtures|dredd|token|carriers|fleet|security|property|flows)/',
    ),
    forbid(
      'suite-workflows-beside-the-suite',
      'error',
      "contract-tests/workflows/ runs the Arazzo workflows with Redocly Respect: it uses the run's redactor (send/) and " +
        "judges each step's answer with the suite's own conformance and verdicts (judge/conformance.ts, judge/verdicts.ts: " +
        'one definition of "conforms" for the suite and the workflows), and nothing else that judges, operates, reports or ' +
        'runs the suite; the report and the runner read its results.',
      '^contract-tests/workflows/',
      '^contract-tests/(judge/(?!conformance\\.ts$|verdicts\\.ts$)|(operators|report|runner|support|self|fixtures|dredd|token|carriers|fleet|security|property|flows)/)',
    ),
    forbid(
      'suite-report-views-read-the-model',
      'error',
      'contract-tests/report/views/ render the report model (report/report-model.ts); they never import a builder of the report.',
      '^contract-tests/report/views/',
      '^contract-tests/report/(?!report-model\\.ts$|views/)',
    ),
    {
      name: 'no-cycle-in-contract-tests',
      comment: 'The contract suite has no import cycle (type imports and dynamic imports count): its layers point one way.',
      severity: 'error',
      from: { path: '^contract-tests/' },
      to: { path: '^contract-tests/', circular: true },
    },
    {
      name: 'no-cycle-in-client',
      comment:
        'src/ must have no import cycle (type imports count). The 5-file loop src/ once had (compose-client -> ' +
        'resend-middleware -> authorizer -> token-provider -> token-client -> compose-client) went with issue 14: the ' +
        'authorizer declares the token source it needs, and the header names live in src/headers.ts.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    // Type-only imports are real edges for the cycle rule (the loop in src/ runs through one).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
