import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { boundaries } from './tools/eslint-boundaries.js';
import { sqlHome } from './tools/eslint-sql-home.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', 'e2e/screenshots/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { vez: { rules: { boundaries, 'sql-home': sqlHome } } },
    rules: {
      'vez/boundaries': 'error',
      'vez/sql-home': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['tools/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['bench/**', 'e2e/**', 'tools/**', 'apps/server/src/cli/**', '**/*.test.{ts,tsx}'],
    rules: { 'no-console': 'off' },
  },
);
