/**
 * The web app's share of the 400-line rule (tests/unit/architecture.test.ts holds the server's): no hand-written
 * file under web/src outgrows one screen of reading. Relay's output (__generated__) is not written by hand.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const WEB_SRC = join(ROOT, "web/src");
const MAX_LINES = 400;

/** Every file under `dir`, generated folders left out. */
function handWritten(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "__generated__" ? [] : handWritten(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Lines as an editor numbers them (a final newline ends the last line; it starts no new one). */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

const files = handWritten(WEB_SRC).map((f) => relative(ROOT, f));

describe("web file size", () => {
  it(`keeps every hand-written file under web/src within ${MAX_LINES} lines`, () => {
    const long = files.map((f) => [f, lineCount(readFileSync(join(ROOT, f), "utf8"))] as const).filter(([, n]) => n > MAX_LINES);
    expect(long).toEqual([]);
  });

  it("finds the files it checks", () => {
    // A guard on the guard: a wrong path would make the check above pass on nothing.
    expect(files).toContain("web/src/main.tsx");
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.includes("__generated__"))).toBe(false);
  });
});
