import { describe, expect, it } from "vitest";
import { adminGuard, ownerHomePath } from "./guard.ts";

const owner = { token: "t", isAdmin: false, ownerHomePath: null };

describe("adminGuard (spec §6)", () => {
  it("sends a visitor without a token to /membership with the wanted path", () => {
    expect(adminGuard("/admin/coupons", "?x=1", { token: null, isAdmin: false, ownerHomePath: null })).toEqual({
      kind: "redirect",
      to: "/membership?r=%2Fadmin%2Fcoupons%3Fx%3D1",
    });
  });
  it("lets admins go anywhere", () => {
    for (const path of ["/admin", "/admin/coupons", "/admin/users", "/admin/business/3/page"]) {
      expect(adminGuard(path, "", { token: "t", isAdmin: true, ownerHomePath: null })).toEqual({ kind: "allow" });
    }
  });
  it("lets other users open My Businesses, change password, Sent mail and business pages", () => {
    for (const path of ["/admin/my", "/admin/change-password", "/admin/mail", "/admin/business/1", "/admin/business/1/next-box"]) {
      expect(adminGuard(path, "", owner)).toEqual({ kind: "allow" });
    }
  });
  it("sends other users from admin-only pages to /admin/my", () => {
    for (const path of ["/admin/coupons", "/admin/users", "/admin/page", "/admin/businesses", "/admin/memberships", "/admin/next-boxes", "/admin/business"]) {
      expect(adminGuard(path, "", owner)).toEqual({ kind: "redirect", to: "/admin/my" });
    }
  });
  it("sends /admin to the stored owner home path, or resolves it", () => {
    expect(adminGuard("/admin", "", { ...owner, ownerHomePath: "/admin/business/7" })).toEqual({ kind: "redirect", to: "/admin/business/7" });
    expect(adminGuard("/admin", "", owner)).toEqual({ kind: "resolve-owner-home" });
  });
  it("computes the owner home from the first business", () => {
    expect(ownerHomePath([4, 2])).toBe("/admin/business/4");
    expect(ownerHomePath([])).toBe("/admin/my");
  });
});
