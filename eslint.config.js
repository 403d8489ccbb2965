// The lint gate (npm test runs it; zero findings): typescript-eslint with type information, React hooks,
// Relay, and the import rules that keep the layers apart (docs/architecture.md).
//
// Layers: the domain (api/, except api/graphql/) owns every rule and every read; two adapters sit over it,
// GraphQL (api/graphql/: the builder, its plugins and one file per type under types/) and REST (rest-compat/);
// the composition root (server/) builds the HTTP server, mounts both adapters and serves the web app. The
// domain imports no adapter and nothing above it, the adapters never import each other, and the web app imports
// nothing of the server but the dependency-free rules in api/shared (as `@shared/…`).
import path from "node:path";
import js from "@eslint/js";
import { fixupPluginRules } from "@eslint/compat";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import relay from "eslint-plugin-relay";
import globals from "globals";
import tseslint from "typescript-eslint";

/** The GraphQL adapter: the yoga/Pothos assembly and every object, query and mutation (api/graphql/types/). */
const graphqlAdapter = "./api/graphql";
/** The domain: every other folder and file of api/. */
const domain = ["./api/!(graphql)/**", "./api/*.ts"];

export default tseslint.config(
  {
    // `eslint .` lints the whole tree: not what is built (Relay's and Prisma's output, the web build) or run.
    ignores: ["**/__generated__/**", "api/generated/**", "dist/**", "node_modules/**", "test-results/**", "playwright-report/**", "data/**", ".data/**", "coverage/**"],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [importX.createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".mjs"] })] },
    rules: {
      // Type-aware rules for what goes wrong in a server that moves money: promises nobody awaits or that land
      // where a callback expects void, awaiting non-promises, switches that forget a case, casts that do nothing.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/prefer-promise-reject-errors": "error",
      "@typescript-eslint/return-await": ["error", "error-handling-correctness-only"],
      // Node runs the server by stripping types: type-only imports must say so.
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-import-type-side-effects": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      // `any` is allowed where a library hands one over (Prisma selections, Pothos query objects); keep it visible in review.
      "@typescript-eslint/no-explicit-any": "off",
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "import-x/no-duplicates": "error",
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            { target: domain, from: graphqlAdapter, message: "The domain must not import the GraphQL adapter." },
            { target: domain, from: "./rest-compat", message: "The domain must not import the REST adapter." },
            ...["./server", "./prisma"].map((from) => ({ target: domain, from, message: "The domain imports nothing above it (server/, prisma/)." })),
            ...["./rest-compat", "./server", "./prisma"].map((from) => ({ target: graphqlAdapter, from, message: "The GraphQL adapter imports the domain only." })),
            ...[graphqlAdapter, "./server", "./prisma"].map((from) => ({ target: "./rest-compat", from, message: "The REST adapter imports the domain only." })),
            ...[graphqlAdapter, "./server"].map((from) => ({ target: "./prisma", from, message: "The seed writes through the domain, not an adapter." })),
            { target: "./web", from: "./api", except: ["./shared"], message: "The web app imports only api/shared (as @shared/…)." },
            ...["./rest-compat", "./server", "./prisma", "./scripts"].map((from) => ({ target: "./web", from, message: "The web app imports no server code." })),
            ...["./api/!(shared)/**", "./api/*.ts", "./rest-compat/**", "./server/**", "./web/**"].map((from) => ({ target: "./api/shared/**", from, message: "api/shared holds dependency-free rules only." })),
          ],
        },
      ],
    },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks, relay: fixupPluginRules(relay) },
    settings: {
      "import-x/resolver-next": [
        importX.createNodeResolver({ extensions: [".ts", ".tsx", ".js"], alias: { "@shared": [path.resolve(import.meta.dirname, "api/shared")] } }),
      ],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "relay/graphql-syntax": "error",
      "relay/graphql-naming": "error",
      "relay/must-colocate-fragment-spreads": "error",
      "relay/unused-fields": "error",
      "relay/hook-required-argument": "error",
      "relay/function-required-argument": "error",
    },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    ...tseslint.configs.disableTypeChecked,
  },
);
