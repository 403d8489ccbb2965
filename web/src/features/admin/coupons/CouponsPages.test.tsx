import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { RelayEnvironmentProvider } from "react-relay";
import { MemoryRouter, Route, Routes } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters, type Variables } from "relay-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { system } from "../../../ui/theme.ts";
import BusinessCouponsRoute from "../../../routes/admin/BusinessCouponsRoute.tsx";
import CouponsRoute from "../../../routes/admin/CouponsRoute.tsx";

/** A server answering each operation by name with the next of its answers (the last one again), recording what was asked. */
function server(answers: Record<string, ((variables: Variables) => unknown)[]>) {
  const calls: { name: string; variables: Variables }[] = [];
  const network = Network.create((request: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      calls.push({ name: request.name, variables });
      const list = answers[request.name] ?? [];
      const answer = list.length > 1 ? list.shift() : list[0];
      void Promise.resolve().then(() => {
        if (!answer) return sink.error(new Error(`Unexpected ${request.name}`));
        sink.next({ data: answer(variables) } as GraphQLResponse);
        sink.complete();
      });
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), calls };
}

const coupon = (o: Record<string, unknown>) => ({
  __typename: "Coupon",
  id: `Q291cG9uOj${String(o.databaseId)}`,
  code: "SPRING",
  type: "PERCENT",
  value: 10,
  active: true,
  duration: "FOREVER",
  durationMonths: null,
  expiresOn: null,
  maxRedemptions: null,
  redemptionCount: 0,
  planIds: [],
  ...o,
});
const plans = { edges: [{ node: { __typename: "Plan", id: "UGxhbjox", databaseId: 1, name: "Veggie Box" } }, { node: { __typename: "Plan", id: "UGxhbjoy", databaseId: 2, name: "Fruit Box" } }] };
const business = (coupons: unknown[]) => ({
  adminBusiness: { __typename: "Business", id: "QnVzaW5lc3M6Nw==", databaseId: 7, name: "Green Acres Farm", viewerCanEdit: true, plans, coupons: { edges: coupons.map((node) => ({ node })) } },
});

function show(environment: Environment, path: string) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment}>
        <MemoryRouter initialEntries={[path]}>
          <Suspense fallback="loading">
            <Routes>
              <Route path="/admin/business/:id/coupons" element={<BusinessCouponsRoute />} />
              <Route path="/admin/coupons" element={<CouponsRoute />} />
            </Routes>
          </Suspense>
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
}

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await new Promise((resolve) => setTimeout(resolve, 0));
});

describe("a business's Coupons page", () => {
  it("creates a coupon with its duration, expiry, limit and plans, then lists it with its terms", async () => {
    const three = coupon({ databaseId: 3, code: "THREE", duration: "REPEATING", durationMonths: 3, expiresOn: "2026-12-31", maxRedemptions: 50, redemptionCount: 2, planIds: [2] });
    const s = server({
      BusinessCouponsRouteQuery: [() => business([]), () => business([three])],
      CreateCouponFormMutation: [() => ({ createCoupon: { __typename: "CreateCouponSuccess" } })],
    });
    show(s.environment, "/admin/business/7/coupons");
    expect(await screen.findByText("Nothing yet")).toBeTruthy();

    type("Code", "three");
    expect(field("Code").value).toBe("THREE");
    type("Value (%)", "10");
    fireEvent.change(screen.getByRole("combobox", { name: "Duration" }), { target: { value: "REPEATING" } });
    type("Months", "1");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Create Coupon" })));
    expect(screen.getByRole("alert").textContent).toBe("Please enter 2 to 36 months");
    expect(s.calls.map((c) => c.name)).not.toContain("CreateCouponFormMutation");

    type("Months", "3");
    type("Expires on (optional)", "2026-12-31");
    type("Maximum redemptions (optional)", "50");
    await act(async () => fireEvent.click(screen.getByRole("checkbox", { name: "Fruit Box" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Create Coupon" })));
    expect(s.calls.find((c) => c.name === "CreateCouponFormMutation")?.variables).toEqual({
      input: { businessId: "7", code: "THREE", type: "PERCENT", value: 10, active: true, duration: "REPEATING", durationMonths: 3, expiresOn: "2026-12-31", maxRedemptions: 50, planIds: ["2"] },
    });
    const row = await screen.findByTestId("coupon-row");
    expect([...within(row).getAllByRole("cell")].map((c) => c.textContent)).toEqual(["THREE", "Percent", "10%", "3 months", "Dec 31, 2026", "Fruit Box", "2 of 50 ▾", "Yes", "DeactivateDelete"]);
  }, 20_000);

  it("shows a coupon's redemptions on demand: member, date, months used", async () => {
    const s = server({
      BusinessCouponsRouteQuery: [() => business([coupon({ databaseId: 4, code: "ONCE", duration: "ONCE", redemptionCount: 1 })])],
      CouponRedemptionsQuery: [
        () => ({
          node: {
            __typename: "Coupon",
            id: "Q291cG9uOjQ=",
            isPlatform: false,
            redemptions: { edges: [{ node: { databaseId: 9, username: "maya", memberName: "Maya Patel", businessName: "Green Acres Farm", redeemedAt: "2026-03-05T15:00:00.000Z", chargesUsed: 1, chargesLeft: 0 } }] },
          },
        }),
      ],
    });
    show(s.environment, "/admin/business/7/coupons");
    const row = await screen.findByTestId("coupon-row");
    await act(async () => fireEvent.click(within(row).getByRole("button", { name: "Redemptions of ONCE: 1" })));
    const [, list] = await screen.findAllByTestId("coupon-redemptions");
    expect([...within(list).getAllByRole("cell")].map((c) => c.textContent)).toEqual(["Maya Patel (maya)", "Mar 5, 2026", "1 of 1"]);
  });

  it("a refused create alerts spec §8's message with the server's reason", async () => {
    const alert = vi.spyOn(window, "alert").mockImplementation(() => {});
    const s = server({
      BusinessCouponsRouteQuery: [() => business([])],
      CreateCouponFormMutation: [() => ({ createCoupon: { __typename: "ConflictError", __isError: "ConflictError", message: "This code is a platform coupon's. Please choose another." } })],
    });
    show(s.environment, "/admin/business/7/coupons");
    await screen.findByText("Nothing yet");
    type("Code", "WELCOME10");
    type("Value (%)", "10");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Create Coupon" })));
    expect(alert).toHaveBeenCalledWith("Failed to create coupon: This code is a platform coupon's. Please choose another.");
  });
});

describe("the administrators' Coupons screen", () => {
  it("platform coupons with their terms, no plan list, and what a coupon does to the business's money", async () => {
    const s = server({ CouponsRouteQuery: [() => ({ coupons: { edges: [{ node: coupon({ databaseId: 5, code: "WELCOME10", redemptionCount: 12 }) }] } })] });
    show(s.environment, "/admin/coupons");
    const row = await screen.findByTestId("coupon-row");
    expect([...within(row).getAllByRole("cell")].map((c) => c.textContent)).toEqual(["WELCOME10", "Percent", "10%", "Forever", "Never", "12 ▾", "Yes", "DeactivateDelete"]);
    expect(screen.getByText(/a platform coupon also lowers what the business receives/)).toBeTruthy();
    expect(screen.queryByText(/Plans \(none checked/)).toBeNull();
  });
});
