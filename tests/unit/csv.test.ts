import { describe, expect, it } from "vitest";
import { toCsv } from "../../api/shared/csv.ts";

describe("toCsv", () => {
  it("quotes what needs quoting and neutralises formulas", () => {
    expect(toCsv(["a", "b"], [["x,y", 'say "hi"'], [null, "=SUM(A1)"], [3, "-2+A1"]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n,\'=SUM(A1)\r\n3,\'-2+A1\r\n');
  });

  it("neutralises every formula trigger OWASP lists, tab and carriage return included", () => {
    const cells = (value: string) => toCsv(["v"], [[value]]).split("\r\n")[1];
    expect(cells("=1+1")).toBe("'=1+1");
    expect(cells("+1+1")).toBe("'+1+1");
    expect(cells("-1+1")).toBe("'-1+1");
    expect(cells("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(cells("\t=cmd|' /C calc'!A0")).toBe("'\t=cmd|' /C calc'!A0");
    // A carriage return also needs quoting (RFC 4180); the guard comes first, inside the quotes.
    expect(toCsv(["v"], [["\r=1+1"]])).toBe('v\r\n"\'\r=1+1"\r\n');
    expect(cells("plain = text")).toBe("plain = text");
    expect(cells(" =1+1")).toBe(" =1+1");
  });

  it("keeps a negative number a number (a refund's amount), and guards anything more after the minus", () => {
    const cells = (value: string | number) => toCsv(["v"], [[value]]).split("\r\n")[1];
    expect(cells("-5.50")).toBe("-5.50");
    expect(cells(-2)).toBe("-2");
    expect(cells("-2e5")).toBe("'-2e5");
    expect(cells("-1+1")).toBe("'-1+1");
    expect(cells("-5.50 ")).toBe("'-5.50 ");
    expect(cells("-.5")).toBe("'-.5");
    expect(cells("-")).toBe("'-");
  });
});
