import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createSystem, defaultConfig } from "@chakra-ui/react";
import { describe, expect, it } from "vitest";
import { appConfig, system } from "./theme.ts";

// theme.ts lists the recipes of the Chakra components the app renders instead of all of Chakra's. A component
// whose recipe is missing renders unstyled, so every component imported anywhere in web/src is checked here
// against the recipe keys its implementation reads (from Chakra's own sources).

const srcDir = path.resolve(import.meta.dirname, "..");
const chakraDir = path.join(path.dirname(createRequire(import.meta.url).resolve("@chakra-ui/react/package.json")), "dist/esm");

const sourceFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "__generated__" ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });

/** Names imported from "@chakra-ui/react" anywhere in the app. */
function importedComponents(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(srcDir)) {
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"@chakra-ui\/react"/g)) {
      for (const part of m[1].split(",")) {
        const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0];
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/** Chakra's index: exported name → the module that defines it (namespaces such as Dialog → its namespace.js). */
function chakraExports(): Map<string, string> {
  const index = path.join(chakraDir, "index.js");
  const text = fs.readFileSync(index, "utf8");
  const out = new Map<string, string>();
  const namespaces = new Map([...text.matchAll(/import \* as (\S+) from '(\.[^']+)'/g)].map((m) => [m[1], path.resolve(chakraDir, m[2])]));
  for (const m of text.matchAll(/export \{([^}]*)\} from '(\.[^']+)'/g)) {
    for (const part of m[1].split(",")) {
      const [local, exported] = part.trim().split(/\s+as\s+/);
      if (local) out.set(exported ?? local, path.resolve(chakraDir, m[2]));
    }
  }
  for (const m of text.matchAll(/export \{ (\S+) as (\w+) \}/g)) if (namespaces.has(m[1])) out.set(m[2], namespaces.get(m[1])!);
  return out;
}

/** Recipe keys read by a module and the Chakra component modules it imports. */
function recipeKeys(entry: string): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<string>();
  const componentsDir = path.join(chakraDir, "components");
  const visit = (file: string) => {
    if (seen.has(file) || !file.startsWith(componentsDir) || !fs.existsSync(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(/key:\s*"(\w+)"/g)) keys.add(m[1]);
    for (const m of text.matchAll(/from '(\.[^']+)'/g)) visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(entry);
  return keys;
}

describe("theme", () => {
  const full = createSystem(defaultConfig);
  /** The system as it was before the recipes were trimmed. */
  const reference = createSystem(defaultConfig, appConfig);

  it("has the recipe of every Chakra component the app imports", () => {
    const exported = chakraExports();
    const components = importedComponents();
    expect(components.has("Button")).toBe(true); // the scan found the app's imports
    const missing: string[] = [];
    let checked = 0;
    for (const name of components) {
      const file = exported.get(name);
      if (!file) continue;
      for (const key of recipeKeys(file)) {
        if (!full.hasRecipe(key)) continue; // e.g. "text": no recipe in Chakra's theme either
        checked++;
        if (!system.hasRecipe(key)) missing.push(`${name} → ${key}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it("keeps Chakra's default tokens, global CSS and preflight, with the platform's fonts and page colours", () => {
    expect(system.getTokenCss()).toEqual(reference.getTokenCss());
    expect(system.getGlobalCss()).toEqual(reference.getGlobalCss());
    expect(system.getPreflightCss()).toEqual(reference.getPreflightCss());
    expect(system.token("fonts.heading")).toContain("Iowan Old Style");
    expect(system.token("colors.orange.500")).toBe(full.token("colors.orange.500"));
  });

  it("styles a button exactly as the full theme does", () => {
    const props = { variant: "outline", size: "sm" } as const;
    expect(system.css(system.getRecipeFn("button")(props))).toEqual(reference.css(reference.getRecipeFn("button")(props)));
  });
});
