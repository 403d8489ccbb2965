/**
 * The documentation, checked on every run: every relative link of README.md and docs/*.md reaches its file, and
 * its #anchor a heading of that file as GitHub slugs it; every environment variable api/config.ts parses is
 * documented in docs/operations.md. The checks take paths and text, so fixtures show each one failing when it
 * should, and the repository's own assertions call the same functions.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** Link targets that leave the repository: never checked. */
const EXTERNAL = /^(?:https?|mailto):/i;

/**
 * The text with every fenced code block blanked (``` or ~~~, closed by a fence of the same character at least as
 * long), and every inline code span too: neither holds links or headings. Line breaks stay, so an offset still
 * names its line.
 */
function prose(markdown: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  let fence: { char: string; length: number } | null = null;
  const lines = markdown.split("\n").map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (marker && marker[1][0] === fence.char && marker[1].length >= fence.length && line.trim() === marker[1]) fence = null;
      return blank(line);
    }
    if (marker) {
      fence = { char: marker[1][0], length: marker[1].length };
      return blank(line);
    }
    return line;
  });
  return lines.join("\n").replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
}

/**
 * GitHub's anchor for a heading: its text as rendered (a link's text, no markup), lower-case, every character
 * that is not a letter, digit, space, hyphen or underscore removed, each space a hyphen.
 */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a file's headings (ATX, outside code), a repeated one numbered -1, -2… as GitHub does. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  // Headings are read from the raw lines (their inline code is text), but only where prose() left the line.
  const raw = markdown.split("\n");
  prose(markdown)
    .split("\n")
    .forEach((line, i) => {
      if (!/^ {0,3}#{1,6}(?:\s|$)/.test(line)) return;
      const text = raw[i].replace(/^ {0,3}#{1,6}\s*/, "").replace(/\s+#+\s*$/, "").replace(/`/g, "");
      const base = slug(text);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    });
  return anchors;
}

/** Every link and image target of a file's prose with its line: inline `[text](target "title")` and definitions `[ref]: target`. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const text = prose(markdown);
  const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
  const found: { target: string; line: number }[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^\s()<>]*)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: m[1], line: lineAt(m.index) });
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) found.push({ target: m[1], line: lineAt(m.index) });
  return found;
}

/**
 * The relative links of `files` that do not resolve, as "file:line: target: why" (paths relative to `root`, which
 * a target starting with "/" is also taken from), and how many links were checked. External links are skipped;
 * an anchor is checked against the headings of a Markdown target (the same file for "#anchor").
 */
function checkLinks(root: string, files: readonly string[]): { checked: number; broken: string[] } {
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, "utf8")));
    return anchorCache.get(file)!;
  };
  let checked = 0;
  const broken: string[] = [];
  for (const file of files) {
    for (const { target, line } of linksOf(readFileSync(file, "utf8"))) {
      if (EXTERNAL.test(target)) continue;
      checked++;
      const [pathPart, ...rest] = target.split("#");
      const anchor = rest.length ? decodeURIComponent(rest.join("#")) : null;
      const path = decodeURIComponent(pathPart);
      const resolved = path === "" ? file : path.startsWith("/") ? join(root, path) : resolve(dirname(file), path);
      const where = `${relative(root, file)}:${line}: ${target}`;
      if (!existsSync(resolved)) broken.push(`${where}: no file ${relative(root, resolved)}`);
      else if (anchor !== null && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) {
        broken.push(`${where}: no heading #${anchor} in ${relative(root, resolved)}`);
      }
    }
  }
  return { checked, broken };
}

/**
 * The environment variables a config module parses, from its source text: the keys of its zod schema (upper-case
 * names at the start of a line, `NAME: z…`) and every `env.NAME`, `e.NAME`, `process.env.NAME` or `env["NAME"]`.
 */
function configVariables(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/^\s+([A-Z][A-Z0-9_]+)\s*:/gm)) names.add(m[1]);
  for (const m of source.matchAll(/\b(?:env|e)\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1]);
  for (const m of source.matchAll(/\benv\[\s*["'`]([A-Z][A-Z0-9_]+)["'`]\s*\]/g)) names.add(m[1]);
  return [...names].sort();
}

/** The variables of a config source that the operations page never names (a whole name, not part of a longer one). */
function undocumentedVariables(configSource: string, operationsPage: string): string[] {
  return configVariables(configSource).filter((name) => !new RegExp(`(?<![A-Z0-9_])${name}(?![A-Z0-9_])`).test(operationsPage));
}

const docsFiles = [join(ROOT, "README.md"), ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => join(ROOT, "docs", f))];

describe("documentation", () => {
  it("has no broken relative link or anchor in README.md and docs/*.md", () => {
    expect(checkLinks(ROOT, docsFiles).broken).toEqual([]);
  });

  it("documents every environment variable of api/config.ts in docs/operations.md", () => {
    const config = readFileSync(join(ROOT, "api/config.ts"), "utf8");
    expect(undocumentedVariables(config, readFileSync(join(ROOT, "docs/operations.md"), "utf8"))).toEqual([]);
  });

  it("finds the links and variables it checks", () => {
    // A guard on the guard: a regex gone wrong would make the checks above pass on nothing.
    expect(docsFiles.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(["README.md", "docs/operations.md", "docs/glossary.md"]));
    expect(checkLinks(ROOT, docsFiles).checked).toBeGreaterThan(100);
    expect(docsFiles.flatMap((f) => linksOf(readFileSync(f, "utf8"))).filter((l) => l.target.includes("#")).length).toBeGreaterThan(50);
    const variables = configVariables(readFileSync(join(ROOT, "api/config.ts"), "utf8"));
    expect(variables.length).toBeGreaterThanOrEqual(25);
    expect(variables).toEqual(expect.arrayContaining(["NODE_ENV", "PORT", "DATABASE_URL", "SMTP_URL", "METRICS_HOST"]));
  });

  it("slugs headings as GitHub does", () => {
    expect(slug("The web app's files")).toBe("the-web-apps-files");
    expect(slug("Connections: pool sizes and max_connections")).toBe("connections-pool-sizes-and-max_connections");
    expect(slug("Sign-ups after the cutoff (next month's box)")).toBe("sign-ups-after-the-cutoff-next-months-box");
    expect(slug("Beyond §7")).toBe("beyond-7");
    expect(slug("Money — and [links](x.md)")).toBe("money--and-links");
    expect([...anchorsOf("# A\n## Notes\n```\n## Notes\n```\n## Notes\n### `code` here\n")]).toEqual(["a", "notes", "notes-1", "code-here"]);
  });

  describe("on fixtures", () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-check-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
      return join(dir, path);
    };

    it("reports exactly the broken file link and the broken anchor", () => {
      const readme = write(
        "README.md",
        [
          "# Fixture",
          "",
          "See [the guide](docs/guide.md), [its setup](docs/guide.md#setup), [the second notes](docs/guide.md#notes-1),",
          "[a heading here](#fixture), [the tests](tests/), [from the root](/docs/guide.md#a-b_c),",
          "[a page that is not there](docs/missing.md) and [a heading that is not there](docs/guide.md#install).",
          "External ones are skipped: [site](https://example.com/x.md), [mail](mailto:a@b.c), [plain](http://x/#y).",
          "In code they are not links: `[x](nowhere.md)`.",
          "```md",
          "[fenced](nowhere.md#at-all)",
          "```",
          "",
        ].join("\n"),
      );
      write("docs/guide.md", "# Guide\n\n## Setup\n\n## Notes\n\n## Notes\n\n## A `b_c`\n\nBack to the [README](../README.md#fixture).\n");
      write("tests/.keep", "");
      const result = checkLinks(dir, [readme, join(dir, "docs/guide.md")]);
      expect(result.broken).toEqual([
        "README.md:5: docs/missing.md: no file docs/missing.md",
        "README.md:5: docs/guide.md#install: no heading #install in docs/guide.md",
      ]);
      expect(result.checked).toBe(9);
    });

    it("reports exactly the variable the operations page leaves out", () => {
      const source = [
        "const Schema = z.object({",
        "  ALPHA: z.string().default(\"a\"),",
        "  /** GAMMA_NOTE: a comment, not a key. */",
        "  GAMMA: z.coerce.number(),",
        "});",
        "const beta = env[\"BETA\"] ?? process.env.DELTA;",
        "export const port = e.ALPHA;",
        "",
      ].join("\n");
      expect(configVariables(source)).toEqual(["ALPHA", "BETA", "DELTA", "GAMMA"]);
      const operations = "| `ALPHA` | … |\n| `GAMMA` | … |\n`BETA_EXTRA` is another setting. DELTA is read too.\n";
      expect(undocumentedVariables(source, operations)).toEqual(["BETA"]);
    });
  });
});
