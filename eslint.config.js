// The lint gate (npm test runs it; zero findings): typescript-eslint with type information, React hooks,
// Relay, and the import rules that keep the layers apart (README "Architecture").
//
// Layers: the domain services (api/, except the GraphQL adapter) own every rule; the adapters over them are
// GraphQL (api/graphql/ and each domain's *schema.ts) and REST (rest-compat/). Services never import an
// adapter, the adapters never import each other, and the web app imports nothing of the server but the
// dependency-free rules in api/shared (as `@shared/…`).
import path from "node:path";
import js from "@eslint/js";
import { fixupPluginRules } from "@eslint/compat";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import relay from "eslint-plugin-relay";
import globals from "globals";
import tseslint from "typescript-eslint";

/** The GraphQL adapter: the yoga/Pothos assembly and every domain's schema files. */
const graphqlAdapter = ["./api/graphql/**", "./api/**/schema.ts", "./api/**/*-schema.ts"];
/** The domain services: everything else under api/ (the server's assembly, api/server.ts and api/main.ts, mounts both adapters). */
const services = ["./api/!(graphql)/**/!(schema|*-schema).ts", "./api/*.ts"];

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
            { target: services, from: graphqlAdapter, message: "A domain service must not import the GraphQL adapter." },
            { target: services, from: "./rest-compat", message: "A domain service must not import the REST adapter." },
            { target: graphqlAdapter, from: "./rest-compat", message: "The GraphQL adapter must not import the REST adapter." },
            { target: "./rest-compat", from: graphqlAdapter, message: "The REST adapter must not import the GraphQL adapter." },
            { target: "./web", from: "./api", except: ["./shared"], message: "The web app imports only api/shared (as @shared/…)." },
            ...["./rest-compat", "./prisma", "./scripts"].map((from) => ({ target: "./web", from, message: "The web app imports no server code." })),
            ...["./api/!(shared)/**", "./api/*.ts", "./rest-compat/**", "./web/**"].map((from) => ({ target: "./api/shared/**", from, message: "api/shared holds dependency-free rules only." })),
          ],
        },
      ],
    },
  },
  {
    // The server's assembly mounts both adapters.
    files: ["api/server.ts", "api/main.ts"],
    rules: { "import-x/no-restricted-paths": "off" },
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
