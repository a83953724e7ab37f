// ESLint for the web app: typescript-eslint's recommended rules and React hooks
// (exhaustive-deps as an error: a stale closure in an effect is a real bug here), and the
// web app's structure (docs/architecture.md, "Web layers"): no import cycles, the shared
// layer imports no feature, features do not reach into app/, and no file over 400 lines.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const SRC = 'web/src';
/** Feature folders: each may import the shared layer (ui/, sim/) and other features, never app/. */
const FEATURES = ['classroom', 'compare', 'export', 'papers', 'scenario', 'schemes', 'tour', 'trace', 'viz'];
const ALL_FEATURES = ['app', ...FEATURES];

/**
 * Files allowed over 400 lines, each with its reason. Keep this list short: a new entry
 * needs a reason a reviewer accepts.
 */
const LONG_FILES = {
  // Data: the guided tours' stops and texts, one long list read top to bottom.
  'web/src/tour/tours.ts': 'tour data',
  // Data: the papers' claims beside our figures (each claim checked by papers.wasm.test.ts).
  'web/src/papers/claims.ts': 'claims data',
  // Issue 30, registry helper's files (split with the scheme registry, not here):
  'web/src/trace/TraceUpload.tsx': 'the shared scheme/chip picker is split out with the registry (issue 30)',
};

export default tseslint.config(
  { ignores: ['dist/', 'web/src/sim/pkg/', 'node_modules/', 'core-wasm/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Structure of web/src (tests and test helpers may import across layers).
  {
    files: [`${SRC}/**/*.{ts,tsx}`],
    ignores: [`${SRC}/**/*.test.ts`, `${SRC}/**/testing/**`],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: `${SRC}/ui`,
              from: [...ALL_FEATURES.map((f) => `${SRC}/${f}`), `${SRC}/sim`],
              message: 'web/src/ui is the generic layer: it imports no feature and not the worker (sim/).',
            },
            {
              target: `${SRC}/sim`,
              from: ALL_FEATURES.filter((f) => f !== 'scenario').map((f) => `${SRC}/${f}`),
              message: 'web/src/sim (worker, client, protocol) is shared: it imports no feature.',
            },
            {
              target: `${SRC}/sim`,
              from: `${SRC}/scenario`,
              // Named exception: the Scenario type and the chip table the core reads live in
              // scenario/model.ts, which the scheme-registry work (issue 30) reshapes; they
              // move to the shared layer with it. Nothing else in scenario/ may be imported.
              except: ['./model.ts'],
              message: 'web/src/sim imports only scenario/model.ts (the Scenario type) from scenario/.',
            },
            {
              target: FEATURES.map((f) => `${SRC}/${f}`),
              from: `${SRC}/app`,
              message: 'Features do not import app/ (it composes them); shared pieces live in ui/ or sim/.',
            },
          ],
        },
      ],
      'max-lines': ['error', { max: 400 }],
    },
  },
  {
    files: Object.keys(LONG_FILES),
    rules: { 'max-lines': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    languageOptions: { globals: globals.node },
  },
);
