import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.nx/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/stacks/**',
                '@checkpoints/aws-s3',
                '@checkpoints/gcp-gcs',
                '@checkpoints/azure-adls',
              ],
              message: 'libs never import stacks.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/naming/**/*.ts', 'libs/tagging/**/*.ts', 'libs/config/**/*.ts', 'libs/analysis/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@pulumi/*'], message: 'naming, tagging, config and analysis import no cloud SDK.' },
            {
              group: [
                '**/stacks/**',
                '@checkpoints/aws-s3',
                '@checkpoints/gcp-gcs',
                '@checkpoints/azure-adls',
              ],
              message: 'libs never import stacks.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
