import { describe, expect, it } from "vitest";
import { addAttachment, withRole } from "./roles.ts";

describe("business attachments (spec §5)", () => {
  it("keeps at most one owner: choosing owner demotes the others to editor", () => {
    let list = addAttachment([], "ann", "OWNER");
    list = addAttachment(list, "bob", "VIEWER");
    list = addAttachment(list, "cy", "OWNER");
    expect(list.map((a) => a.role)).toEqual(["EDITOR", "VIEWER", "OWNER"]);
    expect(withRole(list, 1, "OWNER").map((a) => a.role)).toEqual(["EDITOR", "OWNER", "EDITOR"]);
  });
});
