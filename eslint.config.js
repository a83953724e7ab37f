// ESLint for the web app: typescript-eslint's recommended rules and React hooks
// (exhaustive-deps as an error: a stale closure in an effect is a real bug here), and the
// web app's structure (docs/architecture.md, "Web layers"): no import cycles, the shared
// layer imports no feature, features import only the features below them (FEATURES), and
// no file over 400 lines.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const SRC = 'web/src';
/** The shared layer: ui/ (generic pieces, the glossary) and sim/ (the core's side: worker, client, wire types). */
const SHARED = ['ui', 'sim'];
/**
 * Feature folders, top to bottom (docs/architecture.md, "Web layers"). Each imports the
 * shared layer and the features *below* it here, never one above: so no two folders
 * import each other, nor does any longer cycle run through folders (import-x/no-cycle
 * sees file cycles only; tour/ -> classroom/ -> tour/ went through different files).
 * app/ composes every feature and is imported by none. A feature that needs one above
 * it: move what both need down (ui/, sim/) or to one side, or move the folder in this
 * list if the new direction is the right one (and no import goes the old way).
 */
const FEATURES = [
  'app',
  'compare',
  'papers',
  'classroom',
  'tour',
  'export',
  'device',
  'viz',
  'schemes',
  'trace',
  'scenario',
];

/**
 * Files allowed over 400 lines, each with its reason. Keep this list empty: a new entry
 * needs a reason a reviewer accepts.
 */
const LONG_FILES = {};

/** One zone per feature: the features above it (generated, so the list above is the one place to change). */
const featureZones = FEATURES.slice(1).map((f, i) => {
  const above = FEATURES.slice(0, i + 1);
  return {
    target: `${SRC}/${f}`,
    from: above.map((a) => `${SRC}/${a}`),
    message: `${f}/ sits below ${above.join(', ')} in FEATURES (eslint.config.js): it imports only the features below it and the shared layer (ui/, sim/). Move what both need down a floor or to one side.`,
  };
});

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
            // The shared layer (ui/, sim/) imports no feature.
            ...SHARED.map((s) => ({
              target: `${SRC}/${s}`,
              from: FEATURES.map((f) => `${SRC}/${f}`),
              message: `web/src/${s} is the shared layer: it imports no feature.`,
            })),
            {
              target: `${SRC}/ui`,
              from: `${SRC}/sim`,
              message: 'web/src/ui is the generic layer: it does not import the worker (sim/).',
            },
            {
              // Issue 36: no Session on the page. The wasm package is loaded by web/src/sim
              // only (the worker, the crash worker, pageCore.ts's free functions); tests and
              // testing/ helpers may load it (this block ignores them).
              target: [...FEATURES.map((f) => `${SRC}/${f}`), `${SRC}/ui`, `${SRC}/*.{ts,tsx}`],
              from: `${SRC}/sim/pkg`,
              message: 'Only web/src/sim imports the wasm package (sim/pageCore.ts has the free functions).',
            },
            ...featureZones,
          ],
        },
      ],
      'max-lines': ['error', { max: 400 }],
    },
  },
  ...(Object.keys(LONG_FILES).length ? [{ files: Object.keys(LONG_FILES), rules: { 'max-lines': 'off' } }] : []),
  {
    files: ['scripts/**/*.mjs', '*.js'],
    languageOptions: { globals: globals.node },
  },
);
