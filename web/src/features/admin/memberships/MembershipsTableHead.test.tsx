import { ChakraProvider, Table } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../../ui/theme.ts";
import { MembershipsTableHead, nextSort } from "./MembershipsTableHead.tsx";
import type { MembershipSort } from "./__generated__/MembershipsPanelPaginationQuery.graphql.ts";

afterEach(cleanup);

describe("the memberships table's sortable headers", () => {
  it("a click sorts by the column, a second click the other way", () => {
    expect(nextSort("Member", "STARTED_DESC")).toBe("NAME_ASC");
    expect(nextSort("Member", "NAME_ASC")).toBe("NAME_DESC");
    expect(nextSort("Member", "NAME_DESC")).toBe("NAME_ASC");
    expect(nextSort("Next charge", "NAME_ASC")).toBe("NEXT_CHARGE_ASC");
    expect(nextSort("Next charge", "NEXT_CHARGE_ASC")).toBe("NEXT_CHARGE_DESC");
    expect(nextSort("Started", "NEXT_CHARGE_ASC")).toBe("STARTED_DESC");
    expect(nextSort("Started", "STARTED_DESC")).toBe("STARTED_ASC");
    expect(nextSort("Business", "STARTED_DESC")).toBeNull();
  });

  it("says how the list is sorted (aria-sort) and asks for the next order", () => {
    const asked: MembershipSort[] = [];
    render(
      <ChakraProvider value={system}>
        <Table.Root>
          <MembershipsTableHead sort="NEXT_CHARGE_ASC" onSort={(s) => asked.push(s)} />
        </Table.Root>
      </ChakraProvider>,
    );
    const headers = screen.getAllByRole("columnheader");
    expect(headers.map((h) => h.textContent?.replace(/[▲▼↕]/g, ""))).toEqual(["ID", "Member", "Business", "Plan", "Monthly", "Status", "Next charge", "Started", ""]);
    expect(headers.map((h) => h.getAttribute("aria-sort"))).toEqual([null, "none", null, null, null, null, "ascending", "none", null]);
    fireEvent.click(screen.getByRole("button", { name: "Sort by next charge" }));
    fireEvent.click(screen.getByRole("button", { name: "Sort by member" }));
    expect(asked).toEqual(["NEXT_CHARGE_DESC", "NAME_ASC"]);
  });
});
