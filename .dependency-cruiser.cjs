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
