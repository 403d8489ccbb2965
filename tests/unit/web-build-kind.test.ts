import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { webBuildKind } from "../../server/web-app.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "web-build-kind-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function build(name: string, scripts: Record<string, string>): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, "assets"), { recursive: true });
  fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html>");
  for (const [file, text] of Object.entries(scripts)) fs.writeFileSync(path.join(dir, "assets", file), text);
  return dir;
}

describe("the web build the server says it serves", () => {
  it("is a development build when a script carries React's development runtime", () => {
    const dir = build("dev", { "index-a1.js": "x", "vendor-b2.js": 'console.info("%cDownload the React DevTools for a better development experience")' });
    expect(webBuildKind(dir)).toBe("development");
  });

  it("is a production build otherwise (and with no scripts at all)", () => {
    expect(webBuildKind(build("prod", { "index-a1.js": "function a(){}", "style.css.js": "" }))).toBe("production");
    expect(webBuildKind(build("empty", {}))).toBe("production");
  });
});
