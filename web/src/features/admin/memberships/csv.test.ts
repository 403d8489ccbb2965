import { describe, expect, it } from "vitest";
import { toCsv } from "./csv.ts";

describe("toCsv", () => {
  it("quotes what needs quoting and neutralises formulas", () => {
    expect(toCsv(["a", "b"], [["x,y", 'say "hi"'], [null, "=SUM(A1)"], [3, "-2"]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n,\'=SUM(A1)\r\n3,\'-2\r\n');
  });
});
