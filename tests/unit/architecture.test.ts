/**
 * The server's shape, checked on every run: imports run one way (no circle in api/ or rest-compat/),
 * the REST adapters read nothing themselves (no database call, no policy call: the services do both), and no
 * hand-written server file outgrows one screen of reading (400 lines; generated code aside).
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, importsOf } from "../support/import-graph.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const graph = importGraph(ROOT, ["api", "server", "rest-compat"]);
const files = [...graph.edges.keys()];
const rel = (f: string) => relative(ROOT, f);

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.map(rel).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe("server architecture", () => {
  it("has no import circle in api/, server/ or rest-compat/", () => {
    expect(circles(graph.edges)).toEqual([]);
  });

  it("keeps every hand-written server file under 400 lines", () => {
    const long = files.map((f) => [rel(f), readFileSync(f, "utf8").split("\n").length] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });

  it("lets the REST adapters read only through the services", () => {
    const offenders = files
      .filter((f) => rel(f).startsWith("rest-compat/"))
      .flatMap((f) => {
        const text = readFileSync(f, "utf8");
        const found: string[] = [];
        if (/\bctx\.db\b|\.\$queryRaw|\$transaction/.test(text)) found.push(`${rel(f)}: database call`);
        if (/from\s+["'][./]*api\/auth\/policy\.ts["']/.test(text)) found.push(`${rel(f)}: policy import`);
        return found;
      });
    expect(offenders).toEqual([]);
  });

  it("finds the files it checks", () => {
    // A guard on the guard: a path or pattern gone wrong would make the checks above pass on nothing.
    expect(files.some((f) => rel(f) === "server/main.ts")).toBe(true);
    expect(files.some((f) => rel(f) === "rest-compat/router.ts")).toBe(true);
    expect(importsOf(join(ROOT, "rest-compat/index.ts")).length).toBeGreaterThan(5);
  });
});
