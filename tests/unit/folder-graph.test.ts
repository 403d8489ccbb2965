/**
 * The layering of the server, from its imports: inside api/ no two folders import each other (the rules every
 * domain shares live in api/rules/, which leans on api/shared/ alone), and nothing in api/ reaches up to the
 * composition root (server/), the REST adapter (rest-compat/) or the seed (prisma/).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { folderArrows, folderPairs, importGraph } from "../support/import-graph.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const graph = importGraph(ROOT, ["api", "server", "rest-compat", "prisma"]);
const arrows = folderArrows(graph);
const inApi = (folder: string) => folder.startsWith("api/");

describe("folder graph", () => {
  it("has no pair of folders in api/ that import each other", () => {
    const pairs = folderPairs(graph).filter(([pair]) => pair.split(" <-> ").every(inApi));
    expect(pairs).toEqual([]);
  });

  it("has no arrow from api/ up to server/, rest-compat/ or prisma/", () => {
    const up = [...arrows].filter(([key]) => {
      const [from, to] = key.split(" -> ");
      return inApi(from) && !inApi(to);
    });
    expect(up).toEqual([]);
  });

  it("keeps api/rules/ on api/shared/ alone", () => {
    const leaning = [...arrows].filter(([key]) => key.startsWith("api/rules -> ") && key !== "api/rules -> api/shared");
    expect(leaning).toEqual([]);
  });

  it("sees the imports it checks", () => {
    // A guard on the guard: a wrong path would make the checks above pass on nothing.
    expect(arrows.get("api/billing -> api/rules")?.length).toBeGreaterThan(0);
    expect(arrows.get("server -> api/graphql")?.length).toBeGreaterThan(0);
    expect(arrows.get("server -> prisma")?.length).toBeGreaterThan(0);
  });

  describe("on a fixture tree", () => {
    const dir = mkdtempSync(join(tmpdir(), "folder-graph-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write("api/billing/charge.ts", 'import { nextBox } from "../subscriptions/dates.ts";\nexport const charge = nextBox;\n');
    write("api/subscriptions/dates.ts", 'export const nextBox = 1;\n');
    write("api/subscriptions/restart.ts", 'import type { Charge } from "../billing/types.ts";\nexport type R = Charge;\n');
    write("api/billing/types.ts", "export type Charge = number;\n");
    write("api/config.ts", 'import { seed } from "../prisma/seed.ts";\nexport const c = seed;\n');
    write("prisma/seed.ts", "export const seed = 1;\n");

    it("names a pair with the imports of both directions", () => {
      const fixture = importGraph(dir, ["api", "prisma"]);
      expect(folderPairs(fixture)).toEqual([
        ["api/billing <-> api/subscriptions", "api/billing/charge.ts imports api/subscriptions/dates.ts", "api/subscriptions/restart.ts imports api/billing/types.ts"],
      ]);
      expect([...folderArrows(fixture).keys()]).toContain("api/config.ts -> prisma");
    });
  });
});
