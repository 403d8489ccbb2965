import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { RelayEnvironmentProvider } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse } from "relay-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { system } from "../ui/theme.ts";
import HomeRoute from "./HomeRoute.tsx";

/** A server answering HomeRouteQuery when the test says so: with the given data, or failing. */
function server() {
  const pending: ((answer: GraphQLResponse | Error) => void)[] = [];
  const network = Network.create(() =>
    Observable.create<GraphQLResponse>((sink) => {
      pending.push((answer) => {
        if (answer instanceof Error) return sink.error(answer);
        sink.next(answer);
        sink.complete();
      });
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), pending };
}

const answer = (platformStats: { businesses: number; members: number; boxesDelivered: number }) => ({ data: { homePage: { faqs: [] }, platformStats } });

function show(s: ReturnType<typeof server>) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={s.environment}>
        <MemoryRouter>
          <HomeRoute />
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
}

/** The stats block as label → shown value. */
function stats(): Record<string, string> {
  const list = screen.getByTestId("home-stats");
  const labels = within(list).getAllByRole("term").map((dt) => dt.textContent ?? "");
  const values = within(list).getAllByRole("definition").map((dd) => dd.textContent ?? "");
  return Object.fromEntries(labels.map((label, i) => [label, values[i]]));
}

afterEach(cleanup);

describe("HomeRoute stats (spec §2)", () => {
  it("shows the platform's counts, formatted, with honest labels and no invented rating", async () => {
    const s = server();
    show(s);
    // While the counts load the block keeps its place, with no figure made up.
    expect(stats()).toEqual({ "Local businesses": "…", Members: "…", "Boxes delivered": "…", "Ways to get your box": "3" });
    expect(screen.getByTestId("home-stats").getAttribute("aria-busy")).toBe("true");

    await act(async () => s.pending[0](answer({ businesses: 3, members: 1204, boxesDelivered: 12345 })));
    expect(stats()).toEqual({ "Local businesses": "3", Members: "1,204", "Boxes delivered": "12,345", "Ways to get your box": "3" });
    expect(screen.getByTestId("home-stats").getAttribute("aria-busy")).toBe("false");
    expect(screen.queryByText(/rating/i)).toBeNull();
  });

  it("leaves the stats section out when the counts cannot be read, keeping the rest of the page", async () => {
    // React reports the error the boundary catches; the test expects it.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const s = server();
    show(s);
    await act(async () => s.pending[0](new Error("Unexpected error.")));
    quiet.mockRestore();
    expect(screen.queryByRole("region", { name: "Membership stats" })).toBeNull();
    expect(screen.getByRole("link", { name: "Start Your Membership" })).toBeTruthy();
  });
});
