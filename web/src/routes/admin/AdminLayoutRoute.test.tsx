import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import { AdminShell } from "../../ui/admin/AdminShell.tsx";
import { navSections } from "./AdminLayoutRoute.tsx";

/** The sidebar an administrator sees at `path` (business 7 in view), and its entries marked current. */
function currentEntries(path: string): string[] {
  render(
    <ChakraProvider value={system}>
      <MemoryRouter initialEntries={[path]}>
        <AdminShell sections={navSections(true, "7")} onLogout={() => {}}>
          <p>page</p>
        </AdminShell>
      </MemoryRouter>
    </ChakraProvider>,
  );
  const nav = screen.getByRole("navigation", { name: "Admin" });
  return within(nav)
    .getAllByRole("link")
    .filter((a) => a.getAttribute("aria-current") === "page")
    .map((a) => a.getAttribute("href")!);
}

afterEach(cleanup);

describe("the admin sidebar's current entry", () => {
  it("is the business's Memberships on a member page, as on the list itself", () => {
    expect(currentEntries("/admin/business/7/members/41")).toEqual(["/admin/business/7/memberships"]);
    cleanup();
    expect(currentEntries("/admin/business/7/memberships")).toEqual(["/admin/business/7/memberships"]);
  });

  it("is each page's own entry elsewhere, and none of another business's member pages", () => {
    expect(currentEntries("/admin/business/7")).toEqual(["/admin/business/7"]);
    cleanup();
    expect(currentEntries("/admin/business/7/fulfilment/2026-04")).toEqual(["/admin/business/7/fulfilment"]);
    cleanup();
    expect(currentEntries("/admin/memberships")).toEqual(["/admin/memberships"]);
    cleanup();
    expect(currentEntries("/admin/business/8/members/41")).toEqual([]);
  });
});
