// The JS linter's rules (scripts/lint.sh runs it in CI). Page scripts (web/page/) are classic
// scripts and the engine worker (web/worker/) loads its parts with importScripts: each file
// defines one global (an object or a factory that takes its dependencies as arguments), listed
// here with the files that may use it.
import js from '@eslint/js';
import globals from 'globals';

const shared = {
  StrataProtocol: 'readonly', // web/shared/protocol.js
  StrataWasm: 'readonly', // web/shared/wasm.js
  StrataMarks: 'readonly', // web/shared/marks.js
};
const pageShared = {
  ...shared,
  StrataPage: 'readonly', // page/common.js
  StrataBoot: 'readonly', // page/boot.js
  createStrataUI: 'readonly', // the UI module (strata_ui.js)
  strataRunsInit: 'readonly', // page/runs.js
  strataPodInit: 'readonly', // page/pod.js
  strataCompareInit: 'readonly', // page/compare.js
  strataDroppedFolder: 'readonly',
};
const workerShared = {
  ...shared,
  createStrataEngine: 'readonly', // the engine module (strata_engine.js)
  createSources: 'readonly', // worker/sources.js
  createTrace: 'readonly', // worker/trace.js
  createLoss: 'readonly', // worker/loss.js
  createRuns: 'readonly', // worker/runs.js
  createGraph: 'readonly', // worker/graph.js
  createCompare: 'readonly', // worker/compare.js
  createOpener: 'readonly', // worker/open.js
  createDb: 'readonly', // worker/db.js
  createPod: 'readonly', // worker/pod.js
  createBundle: 'readonly', // worker/bundle.js
  createSliced: 'readonly', // worker/sliced.js
};

export default [
  js.configs.recommended,
  {
    rules: {
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-redeclare': ['error', { builtinGlobals: false }],
      'preserve-caught-error': 'off',
      'no-useless-assignment': 'off',
    },
  },
  {
    files: ['web/page/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, ...pageShared } },
  },
  {
    files: ['web/shared/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ['web/worker/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.worker, ...workerShared } },
  },
  {
    files: ['web/sw.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker } },
  },
  {
    files: ['scripts/**/*.mjs', 'scripts/bench-*', 'tests/e2e/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.browser, strata: 'readonly' } },
  },
];
