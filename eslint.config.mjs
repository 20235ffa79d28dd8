// Lint rules: typescript-eslint and eslint-plugin-vue recommended sets, plus the layers of the design (test/meta/layers.test.ts shows each one firing); layout is Prettier's (eslint-config-prettier turns off the rules that would fight it).
import { builtinModules } from 'node:module'
import tseslint from 'typescript-eslint'
import pluginVue from 'eslint-plugin-vue'
import prettier from 'eslint-config-prettier/flat'

/** Node's own modules, with and without the node: prefix. */
const nodeModules = builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => [m, `node:${m}`])
const noNode = { group: ['node:*', ...nodeModules.map((m) => `${m}/*`)], message: 'Only main-side code may use Node modules.' }
const noElectron = {
  name: 'electron',
  message: 'Only the shell (src/main/index.ts, src/main/shell/, the host entry) and the preload touch Electron.'
}
const nodeNames = nodeModules.map((name) => ({ name, message: 'Only main-side code may use Node modules.' }))

/** Main-side code below the host: it is given its services by the host, and never reaches back up to it. */
const noHost = {
  group: ['**/host/*', '**/main/host'],
  message: 'The host wires every domain: a domain takes the services it is given (its handlers’ own interface), never the host.'
}
/** Reconcile declares what it needs of shared sessions (SharedSessions in reconcile/shared-sessions.ts); team implements it. */
const noTeam = { group: ['**/team/*'], message: 'reconcile knows nothing of team: team implements the interface reconcile declares.' }
const noApiClient = {
  group: ['**/api/client', '**/api/http', '../api/*', '**/main/api/*'],
  message: 'The cache does not import the API client.'
}
/** The Sandbox is our own provider for trying the app: a domain uses only its seed and sample statements; the host and the CLI start it. */
const sandboxWriters = {
  group: ['**/sandbox/*', '!**/sandbox/seed', '!**/sandbox/statement', '!**/sandbox/statement-formats'],
  message: 'A domain uses the Sandbox only through its seed and statement writers; the host (or the CLI) starts it.'
}
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { paths: [noElectron], patterns }] })

/** Main-side folders and their import rules, the most specific last (a file takes the rule of the last block that names it). */
const mainLayers = [
  {
    // Everything main-side may use Electron only in the shell; the CLI, tests and benchmarks never.
    files: ['src/main/**/*.ts', 'src/sandbox/**/*.ts', 'src/cli/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/main/index.ts', 'src/main/shell/**', 'src/main/host/entry.ts'],
    rules: restrict([])
  },
  {
    // Domains and the infrastructure under them: below the host.
    files: ['src/main/*.ts', 'src/main/*/**/*.ts'],
    ignores: ['src/main/index.ts', 'src/main/shell/**', 'src/main/host/**'],
    rules: restrict([noHost, sandboxWriters])
  },
  { files: ['src/main/reconcile/**/*.ts'], rules: restrict([noHost, noTeam, sandboxWriters]) },
  // The cache stores what it is given; it never talks to the provider.
  { files: ['src/main/cache/**/*.ts'], rules: restrict([noHost, noApiClient, sandboxWriters]) }
]

/** The renderer never matches an error code by its text: by its kind (errorTitle) or codeIs, whose codes are typed. */
const noCodeLiterals = [
  "BinaryExpression[left.property.name='code'][right.type='Literal']",
  "BinaryExpression[right.property.name='code'][left.type='Literal']",
  "CallExpression[callee.property.name='test'] > MemberExpression.arguments[property.name='code']",
  "SwitchStatement[discriminant.property.name='code']"
].map((selector) => ({
  selector,
  message: "An error's code is matched through codeIs or errorKind (src/shared/error-codes.ts), typed, never as text."
}))

/** The layers, as import restrictions per folder. */
const layers = [
  {
    // The renderer sees the app only through window.api: its own code, src/shared and browser packages.
    files: ['src/renderer/**/*.{ts,vue}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            ...nodeNames,
            {
              name: 'naive-ui',
              importNames: ['useMessage'],
              message: "Toasts go through useToasts (src/renderer/src/toasts.ts): Naive's own max drops the newest toast."
            }
          ],
          patterns: [
            noNode,
            {
              group: ['**/main/**', '**/preload/**', '**/cli/**', '../../../main', '../../../preload'],
              message: 'The renderer imports only src/shared and its own code.'
            }
          ]
        }
      ],
      'no-restricted-syntax': ['error', ...noCodeLiterals]
    }
  },
  {
    // Screens render and decide: every call to the host goes through a store (loading, errors and stale answers handled once).
    files: ['src/renderer/src/views/**/*.{ts,vue}', 'src/renderer/src/components/**/*.{ts,vue}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='window'][property.name='api']",
          message: 'Views and components call the host through a store, never window.api.'
        },
        ...noCodeLiterals
      ]
    }
  },
  {
    // Shared code runs everywhere, the sandboxed renderer included: no Node, no Electron, nothing from a process's own code.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, ...nodeNames],
          patterns: [
            noNode,
            { group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/cli/**'], message: 'src/shared imports only src/shared.' }
          ]
        }
      ]
    }
  },
  ...mainLayers,
  {
    files: ['src/preload/**/*.ts'],
    ignores: ['src/preload/index.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] }
  }
]

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'test-artifacts/**', '.scratch/**'] },
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } }
  },
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  },
  ...layers,
  {
    files: ['bin/**/*.cjs', 'scripts/**/*.cjs', 'test/**/*.cjs', 'bench/**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        process: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        console: 'readonly',
        Buffer: 'readonly'
      }
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } }
  }
)
