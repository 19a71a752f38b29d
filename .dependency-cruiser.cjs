// `npm run lint:deps`: the direction of the kit's imports (see spec-core/README.md).
//   spec-core -> sandbox / contract suite / tools -> thin scripts/ entry points -> tests
// CommonJS because dependency-cruiser loads its config with require() and the package is "type": "module".
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'nothing-imports-scripts',
      comment:
        'scripts/ holds entry points: they parse arguments and call a module. Logic another part needs lives outside ' +
        'scripts/ (spec-core/, tools/, contract-tests/runner/), so the dependency never runs back into scripts/.',
      severity: 'error',
      from: { pathNot: '^scripts/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'spec-core-imports-nothing-of-the-kit',
      comment: 'spec-core is the bottom layer: every spec reader builds on it, so it may not depend on any of them.',
      severity: 'error',
      from: { path: '^spec-core/' },
      to: { path: '^(src|generated|tools|sandbox|contract-tests|scripts|test)/' },
    },
    {
      name: 'client-stays-self-contained',
      comment:
        'src/ is the published client: it may import only itself, the generated types and its runtime dependency. ' +
        'spec-core and the tools would pull yaml and ajv into the package.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(spec-core|tools|sandbox|contract-tests|scripts|test)/' },
    },
    {
      name: 'no-cycle-in-client',
      comment:
        'src/ must have no import cycle (type imports count). At the time this rule was added, src/ had one 5-file loop ' +
        '(compose-client -> resend-middleware -> authorizer -> token-provider -> token-client -> compose-client, from a type ' +
        'import and a header constant) that the client rework (issue 14, item 4) removes; ' +
        'until that lands the rule warns instead of failing. Set it to "error" once `npm run lint:deps` shows no warning.',
      severity: 'warn',
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
