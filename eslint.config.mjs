// The JS linter's rules (scripts/lint.sh runs it in CI). Page scripts are classic scripts that
// share a few globals (each declared where it is defined); workers use importScripts.
import js from '@eslint/js';
import globals from 'globals';

const pageShared = {
  createStrataUI: 'readonly',
  strataRunsInit: 'readonly',
  strataDroppedFolder: 'readonly',
  strataGraphInit: 'writable',
};
const workerShared = {
  createStrataEngine: 'readonly',
};
// The engine worker's fragments (loss-, runs-, graph-worker.js) still share engine-worker.js's
// globals through importScripts; until they become one worker with explicit interfaces, the
// names they share are listed here.
const fragmentShared = Object.fromEntries(
  (
    'withString feedChunks sourceChunks readRange blobChunks currentSource PROGRESS_EVERY_MS ' +
    'lossIsTextLog lossImport lossMessage lossSetTags lossFiles lossIsGzip lossGunzipHead LOSS_GUESS_BYTES ' +
    'graphKind graphImport graphLoadTraceModules graphMessage runsStats'
  )
    .split(' ')
    .map((n) => [n, 'writable']),
);

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
    files: ['web/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, ...pageShared } },
  },
  {
    files: ['web/**/*worker*.js', 'web/worker/**/*.js', 'web/sw.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { ...globals.worker, ...globals.serviceworker, ...workerShared },
    },
  },
  {
    files: ['web/engine-worker.js', 'web/loss-worker.js', 'web/runs-worker.js', 'web/graph-worker.js'],
    languageOptions: { globals: fragmentShared },
    rules: { 'no-unused-vars': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'scripts/bench-*', 'tests/e2e/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.browser, strata: 'readonly' } },
  },
];
