/**
 * The server's import graph as the architecture tests read it: every relative import and re-export of the
 * hand-written TypeScript under a few top-level folders (type-only ones included: they tie modules together
 * just the same), with Prisma's generated client left out.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

export interface ImportGraph {
  root: string;
  /** Each file (absolute) and the files it imports (absolute, resolved). */
  edges: Map<string, string[]>;
}

const isGenerated = (path: string) => path.split(sep).includes("generated");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return isGenerated(path) ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Relative imports and re-exports of one file, resolved to absolute paths. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+["'](\.[^"']+)["']/gm),
    ...text.matchAll(/^\s*import\s+["'](\.[^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["'](\.[^"']+)["']\s*\)/g),
  ];
  return specs.map((m) => resolve(dirname(file), m[1])).filter((target) => !isGenerated(target));
}

export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files = dirs.flatMap((d) => sourceFiles(join(root, d)));
  return { root, edges: new Map(files.map((f) => [f, importsOf(f)])) };
}

/**
 * The folder a file belongs to, as the layering reads it: `api/billing` for anything under api/billing/, the
 * file itself for a file directly in api/ (`api/db.ts`), the top-level folder elsewhere (`server`, `prisma`).
 */
function folderOf(root: string, file: string): string {
  const parts = relative(root, file).split(sep);
  if (parts[0] === "api") return parts.length > 2 ? `api/${parts[1]}` : parts.join("/");
  return parts[0];
}

/** Folder-to-folder arrows, each with the file imports that make it. */
export function folderArrows(graph: ImportGraph): Map<string, string[]> {
  const arrows = new Map<string, string[]>();
  for (const [file, targets] of graph.edges) {
    const from = folderOf(graph.root, file);
    for (const target of targets) {
      const to = folderOf(graph.root, target);
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      arrows.set(key, [...(arrows.get(key) ?? []), `${relative(graph.root, file)} imports ${relative(graph.root, target)}`]);
    }
  }
  return arrows;
}

/** Pairs of folders that import each other, each listed once with the imports of both directions. */
export function folderPairs(graph: ImportGraph): string[][] {
  const arrows = folderArrows(graph);
  const pairs: string[][] = [];
  for (const [key, lines] of arrows) {
    const [from, to] = key.split(" -> ");
    const back = arrows.get(`${to} -> ${from}`);
    if (back && from < to) pairs.push([`${from} <-> ${to}`, ...lines, ...back]);
  }
  return pairs;
}
