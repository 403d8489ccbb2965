import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters, type Variables } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../../ui/theme.ts";
import type { MemberPageTestQuery } from "./__generated__/MemberPageTestQuery.graphql.ts";
import { MemberDetails } from "./MemberDetails.tsx";
import { MemberMail } from "./MemberMail.tsx";
import { MemberNotes } from "./MemberNotes.tsx";
import { MembershipDetails } from "./MembershipDetails.tsx";

const query = graphql`
  query MemberPageTestQuery {
    adminMembership(businessId: 1, membershipId: 12) {
      ...MemberDetailsFragment_membership
      ...MembershipDetailsFragment_membership
      ...MemberMailFragment_membership
      ...MemberNotesFragment_membership
    }
  }
`;

const note = (n: number, body: string, authorName: string | null, createdAt: string) => ({
  cursor: `n${n}`,
  node: { __typename: "MembershipNote", id: `TWVtYmVyc2hpcE5vdGU6${n}`, body, authorName, createdAt },
});

/** The membership as the server answers it: amounts and dates are the server's, the page only shows them. */
function membership(o: Record<string, unknown> = {}) {
  return {
    __typename: "Membership",
    id: "TWVtYmVyc2hpcDoxMg==",
    memberName: "Ada Lovelace",
    username: "ada",
    email: "ada@example.com",
    memberPhone: "330-555-0199",
    memberSince: "2025-06-02T15:00:00.000Z",
    status: "ACTIVE",
    planName: "Veg Box",
    mode: "DELIVERY",
    fulfillmentPoint: "North side",
    totalCents: 4100,
    startedAt: "2026-01-10T15:00:00.000Z",
    canceledAt: null,
    nextBoxDate: "2026-05-06",
    isGift: true,
    giftMessage: "Happy spring!",
    couponCode: "WELCOME10",
    couponTerms: "10 % off · 2 months left",
    addons: [{ name: "Eggs", amountCents: 600 }],
    deliveryAddress: { fullName: "Ada Lovelace", street: "1 Elm St", apt: "", city: "Akron", state: "OH", zip: "44301", country: "US", instructions: "Side gate" },
    skips: [{ yearMonth: "2026-04" }],
    nextCharge: { date: "2026-05-03", amountCents: 5044, retry: false },
    pendingChange: { effectivePeriod: "2026-05", mode: "DELIVERY", fulfillmentPoint: "North side", plan: { __typename: "Plan", id: "UGxhbjoy", name: "Family Box" }, addons: [{ __typename: "Addon", id: "QWRkb246Mw==", name: "Eggs" }], breakdown: { totalCents: 5044 } },
    sentMail: {
      edges: [{ cursor: "m1", node: { __typename: "MailMessage", id: "TWFpbE1lc3NhZ2U6MQ==", status: "HELD", templateName: "Skip confirmation", subject: "You skipped April", toAddress: "ada@example.com", resent: false, createdAt: "2026-03-05T15:00:00.000Z" } }],
      pageInfo: { endCursor: "m1", hasNextPage: false },
    },
    viewerCan: { addNote: true },
    notes: { edges: [note(2, "Called about April.", "Hannah", "2026-03-05T17:00:00.000Z"), note(1, "Prefers the side door.", null, "2026-03-05T16:00:00.000Z")], pageInfo: { endCursor: "n1", hasNextPage: false } },
    ...o,
  };
}

/** A network answering the page's query, and the note mutation with `onNote` (which sees its variables). */
function environment(data: Record<string, unknown>, onNote?: (variables: Variables) => unknown) {
  const network = Network.create((operation: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      sink.next({ data: operation.name === "MemberNotesAddMutation" ? (onNote?.(variables) as Record<string, unknown>) : { adminMembership: data } });
      sink.complete();
    }),
  );
  return new Environment({ network, store: new Store(new RecordSource()) });
}

function Page() {
  const data = useLazyLoadQuery<MemberPageTestQuery>(query, {});
  const m = data.adminMembership;
  if (!m) return null;
  return (
    <>
      <MemberDetails membership={m} />
      <MembershipDetails membership={m} />
      <MemberNotes membership={m} />
      <MemberMail membership={m} />
    </>
  );
}

const show = (data: Record<string, unknown>, onNote?: (variables: Variables) => unknown) =>
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment(data, onNote)}>
        <Suspense fallback="loading">
          <Page />
        </Suspense>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );

/** The value beside a label in a description list. */
const fact = (list: HTMLElement, label: string) => within(list).getByText(label, { selector: "dt" }).nextElementSibling?.textContent;

afterEach(cleanup);

describe("the member page's components", () => {
  it("shows the member and the membership as the server sent them: next charge, change, skips, gift, coupon", async () => {
    show(membership());
    const member = await screen.findByLabelText("Member");
    expect(fact(member, "Full name")).toBe("Ada Lovelace");
    expect(fact(member, "Phone")).toBe("330-555-0199");
    expect(fact(member, "Member since")).toBe("Jun 2, 2025");
    const details = screen.getByLabelText("Membership");
    expect(fact(details, "Next charge")).toBe("May 3, 2026 · $50.44");
    expect(fact(details, "Delivery area")).toBe("North side");
    expect(fact(details, "Add-ons")).toBe("Eggs ($6.00)");
    expect(fact(details, "Skipped months")).toBe("April 2026");
    expect(fact(details, "Scheduled change")).toBe("From May 2026: Family Box · Delivery (North side)Add-ons: Eggs · $50.44 a month");
    expect(fact(details, "Gift")).toBe("Yes“Happy spring!”");
    expect(fact(details, "Coupon")).toBe("WELCOME10 · 10 % off · 2 months left");
    expect(fact(details, "Delivery address")).toContain("1 Elm St");
  });

  it("a canceled membership has no next charge or next box", async () => {
    show(membership({ status: "CANCELED", canceledAt: "2026-03-01T00:00:00.000Z", nextCharge: null, pendingChange: null, isGift: false }));
    const details = await screen.findByLabelText("Membership");
    expect(fact(details, "Next charge")).toBe("—");
    expect(fact(details, "Canceled")).toBe("Mar 1, 2026");
    expect(within(details).queryByText("Next box")).toBeNull();
    expect(fact(details, "Gift")).toBe("No");
  });

  it("lists the notes newest first with author and time, and adds one at the top", async () => {
    let sent: Variables | null = null;
    show(membership(), (v) => {
      sent = v;
      return { addMembershipNote: { __typename: "AddMembershipNoteSuccess", data: { __typename: "MembershipNote", id: "TWVtYmVyc2hpcE5vdGU6Mw==", body: "Asked for a bigger box.", authorName: "Hannah", createdAt: "2026-03-06T09:00:00.000Z" } } };
    });
    const notes = await screen.findByRole("list", { name: "Notes, newest first" });
    expect(within(notes).getAllByTestId("member-note").map((n) => n.firstChild?.textContent)).toEqual(["Called about April.", "Prefers the side door."]);
    expect(within(notes).getAllByTestId("member-note")[1].textContent).toContain("A former user");
    const add = screen.getByRole<HTMLButtonElement>("button", { name: "Add note" });
    expect(add.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("New note"), { target: { value: "   " } });
    expect(add.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("New note"), { target: { value: "Asked for a bigger box." } });
    expect(screen.getByText("23 / 2,000")).toBeTruthy();
    fireEvent.click(add);
    await waitFor(() => expect(within(notes).getAllByTestId("member-note")).toHaveLength(3));
    expect(within(notes).getAllByTestId("member-note")[0].firstChild?.textContent).toBe("Asked for a bigger box.");
    expect(sent).toMatchObject({ input: { membershipId: "TWVtYmVyc2hpcDoxMg==", body: "Asked for a bigger box." } });
    expect(screen.getByLabelText<HTMLTextAreaElement>("New note").value).toBe("");
  });

  it("shows the server's refusal of a note and keeps the text", async () => {
    show(membership(), () => ({ addMembershipNote: { __typename: "ValidationError", __isError: "ValidationError", message: "A note can be at most 2,000 characters long." } }));
    fireEvent.change(await screen.findByLabelText("New note"), { target: { value: "Too long, the server says." } });
    fireEvent.click(screen.getByRole("button", { name: "Add note" }));
    expect((await screen.findByRole("alert")).textContent).toBe("A note can be at most 2,000 characters long.");
    expect(screen.getByLabelText<HTMLTextAreaElement>("New note").value).toBe("Too long, the server says.");
    expect(screen.getAllByTestId("member-note")).toHaveLength(2);
  });

  it("viewers read notes without the form; a note over 2,000 characters cannot be sent", async () => {
    show(membership({ viewerCan: { addNote: false }, notes: { edges: [], pageInfo: { endCursor: null, hasNextPage: false } } }));
    expect(await screen.findByText("Owners and editors add notes; you can read them.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add note" })).toBeNull();
    expect(screen.getByText("No notes yet.")).toBeTruthy();
    cleanup();
    show(membership());
    fireEvent.change(await screen.findByLabelText("New note"), { target: { value: "x".repeat(2001) } });
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Add note" }).disabled).toBe(true);
  });

  it("lists the business's mail to the member, or says only owners see it", async () => {
    show(membership());
    const row = await screen.findByTestId("member-mail");
    expect(row.textContent).toContain("Skip confirmation");
    expect(row.textContent).toContain("You skipped April");
    expect(within(row).getByRole("button", { name: "View Skip confirmation to ada@example.com" })).toBeTruthy();
    cleanup();
    show(membership({ sentMail: null }));
    expect(await screen.findByText("Only the business's owners see its mail.")).toBeTruthy();
  });
});
