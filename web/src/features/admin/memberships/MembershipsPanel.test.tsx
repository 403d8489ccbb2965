import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters, type Variables } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../../ui/theme.ts";
import type { MembershipsPanelTestQuery } from "./__generated__/MembershipsPanelTestQuery.graphql.ts";
import { MembershipsPanel } from "./MembershipsPanel.tsx";

const query = graphql`
  query MembershipsPanelTestQuery {
    ...MembershipsPanelFragment_query @arguments(status: ANY)
  }
`;

/** A row of the list as the server answers it: an active member of Quince Farm, charged next on April 1st. */
function membership(id: number, o: Record<string, unknown> = {}) {
  return {
    __typename: "Membership",
    id: `TWVtYmVyc2hpcDo${id}`,
    databaseId: id,
    username: `member${id}`,
    memberName: `Member ${id}`,
    email: null,
    userPublicId: `pub-${id}`,
    status: "ACTIVE",
    startedAt: "2026-01-05T15:00:00.000Z",
    canceledAt: null,
    planName: "Harvest Box",
    mode: "PICKUP",
    totalCents: 2400,
    nextCharge: { date: "2026-04-01" },
    pausedThrough: null,
    resumeDate: null,
    cancelAfterPeriod: null,
    business: { __typename: "Business", id: "QnVzaW5lc3M6MQ==", databaseId: 1, name: "Quince Farm" },
    ...o,
  };
}

/** Paused for April and May (boxes back on June 6th); ending after its April box; both. */
const PAUSED = membership(1, { pausedThrough: "2026-05", resumeDate: "2026-06-06" });
const ENDING = membership(2, { status: "PAST_DUE", cancelAfterPeriod: "2026-04" });
const BOTH = membership(3, { pausedThrough: "2026-04", resumeDate: "2026-05-15", cancelAfterPeriod: "2026-05" });
const PLAIN = membership(4);

const connection = (nodes: unknown[]) => ({
  memberships: { edges: nodes.map((node, i) => ({ cursor: `c${i}`, node })), pageInfo: { endCursor: nodes.length ? `c${nodes.length - 1}` : null, hasNextPage: false } },
});

/** A server answering the route's query with `rows` and each refetch with `byStatus[status]`, recording the refetches' variables. */
function server(rows: unknown[], byStatus: Record<string, unknown[]> = {}) {
  const refetched: Variables[] = [];
  const network = Network.create((params: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      if (params.name === "MembershipsPanelTestQuery") sink.next({ data: connection(rows) });
      else {
        refetched.push(variables);
        sink.next({ data: connection(byStatus[variables.status as string] ?? []) });
      }
      sink.complete();
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()), treatMissingFieldsAsNull: true }), refetched };
}

function Panel() {
  const data = useLazyLoadQuery<MembershipsPanelTestQuery>(query, {});
  return <MembershipsPanel query={data} businessId={1} />;
}

function renderPanel(environment: Environment) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment}>
        <MemoryRouter>
          <Suspense fallback="loading">
            <Panel />
          </Suspense>
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
}

const notesOf = (row: HTMLElement) => within(row).queryAllByTestId("membership-note").map((n) => n.textContent);

afterEach(cleanup);

describe("the memberships list: paused and ending memberships", () => {
  it("says under the status until when a membership is paused and after which box it ends, in the table and on the phone's cards", async () => {
    renderPanel(server([PAUSED, ENDING, BOTH, PLAIN]).environment);
    const rows = await screen.findAllByTestId("membership-row");
    const cards = screen.getAllByTestId("membership-card");
    for (const layout of [rows, cards]) {
      expect(layout.map(notesOf)).toEqual([
        ["Paused until June 6th"],
        ["Ends after the April 2026 box"],
        ["Paused until May 15th", "Ends after the May 2026 box"],
        [],
      ]);
    }
    // Beside the status badge, in the status column.
    expect(within(rows[1]).getByText("Past due").closest("td")).toBe(within(rows[1]).getByText("Ends after the April 2026 box").closest("td"));
  });

  it("filters by Paused and Ending on the server; their CSV is the active memberships', as the note says", async () => {
    const { environment, refetched } = server([PAUSED, ENDING, PLAIN], { PAUSED: [PAUSED], ENDING: [ENDING] });
    renderPanel(environment);
    await screen.findAllByTestId("membership-row");
    const select = screen.getByRole<HTMLSelectElement>("combobox", { name: "Status" });
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["ANY", "Any status"],
      ["ACTIVE", "Active"],
      ["PAST_DUE", "Past due"],
      ["PAUSED", "Paused"],
      ["ENDING", "Ending"],
      ["CANCELED", "Canceled"],
    ]);
    expect(screen.queryByText(/The CSV holds every active membership/)).toBeNull();

    fireEvent.change(select, { target: { value: "PAUSED" } });
    await waitFor(() => expect(screen.getAllByTestId("membership-row")).toHaveLength(1));
    expect(notesOf(screen.getByTestId("membership-row"))).toEqual(["Paused until June 6th"]);
    expect(refetched.at(-1)).toMatchObject({ status: "PAUSED", businessId: 1, search: null, sort: "STARTED_DESC" });
    expect(screen.getByText("The CSV holds every active membership: its paused_through and cancel_after columns mark these.")).toBeTruthy();

    fireEvent.change(select, { target: { value: "ENDING" } });
    await waitFor(() => expect(notesOf(screen.getByTestId("membership-row"))).toEqual(["Ends after the April 2026 box"]));
    expect(refetched.at(-1)).toMatchObject({ status: "ENDING" });
  });
});
