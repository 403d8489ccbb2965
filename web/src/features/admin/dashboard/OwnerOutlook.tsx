import type { ReactNode } from "react";
import { Link, SimpleGrid, Stat, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import { formatCents } from "@shared/money.ts";
import { monthYear } from "../../../lib/dates.ts";
import { formatDay } from "../packing/format.ts";
import type { OwnerOutlookFragment$key } from "./__generated__/OwnerOutlookFragment.graphql.ts";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "+$6.00" / "-$6.00" / "$0.00": a change of money, signed. */
function signedCents(cents: number): string {
  return cents > 0 ? `+${formatCents(cents)}` : formatCents(cents);
}

/**
 * The business dashboard's outlook (docs/admin.md, Business dashboard): the next billing run, MRR with its change
 * since the end of last month, this month's boxes to pack (linking to the Fulfilment screen of that month), how many
 * memberships are past due (the soonest retry: the list's first), new members and cancellations. Every figure is the
 * server's; only formatted here.
 */
export function OwnerOutlook({ metrics, businessId }: { metrics: OwnerOutlookFragment$key; businessId: number }) {
  const data = useFragment(
    graphql`
      fragment OwnerOutlookFragment on BusinessMetrics {
        nextBillingRun {
          date
          memberships
          amountCents
          changes
        }
        boxesThisMonth {
          month
          boxes
          held
          addedSinceFreeze
        }
        membersThisMonth {
          newMembers
          canceled
          cancellationRequests {
            requests
            offersAccepted
            byReason {
              reason
              count
            }
          }
        }
        recurringRevenue {
          mrrCents
          previousMonth
          changeCents
        }
        pastDue {
          total
          memberships {
            nextRetryDate
          }
        }
      }
    `,
    metrics,
  );
  const run = data.nextBillingRun;
  const boxes = data.boxesThisMonth;
  const mrr = data.recurringRevenue;
  const pastDue = data.pastDue;
  const month = monthYear(boxes.month);
  const requests = data.membersThisMonth.cancellationRequests;
  const soonestRetry = pastDue.memberships.find((m) => m.nextRetryDate)?.nextRetryDate;
  // Two columns on a phone (the next run and MRR across both), three from lg: money and what is due, then members.
  return (
    <SimpleGrid columns={{ base: 2, lg: 3 }} gap="3" data-testid="owner-outlook">
      <OutlookCard label="Next billing run" value={run ? formatDay(run.date) : "None"} wide>
        {run ? (
          <>
            {plural(run.memberships, "membership", "memberships")} · {formatCents(run.amountCents)} expected
            {run.changes > 0 && (
              <Text as="span" display="block">
                {plural(run.changes, "box change takes", "box changes take")} effect
              </Text>
            )}
          </>
        ) : (
          "No renewals due"
        )}
      </OutlookCard>
      <OutlookCard label="Monthly recurring revenue" value={formatCents(mrr.mrrCents)} wide>
        <Text as="span" color={mrr.changeCents > 0 ? "green.700" : mrr.changeCents < 0 ? "red.700" : undefined} fontWeight={mrr.changeCents ? "semibold" : undefined}>
          {signedCents(mrr.changeCents)}
        </Text>{" "}
        since the end of {monthYear(mrr.previousMonth)}
      </OutlookCard>
      <OutlookCard label="Boxes to pack" value={String(boxes.boxes)}>
        <Text as="span" display="block">
          {month}
          {boxes.held > 0 && ` · ${boxes.held} on hold`}
          {boxes.addedSinceFreeze > 0 && ` · ${boxes.addedSinceFreeze} paid after the freeze`}
        </Text>
        <Link asChild color="orange.700" fontWeight="medium">
          <RouterLink to={`/admin/business/${businessId}/fulfilment/${boxes.month}`} aria-label={`Open Fulfilment for ${month}`}>
            Open Fulfilment
          </RouterLink>
        </Link>
      </OutlookCard>
      <OutlookCard label="Past due" value={String(pastDue.total)}>
        {pastDue.total === 0 ? "Everyone is paid up" : soonestRetry ? `Next retry ${formatDay(soonestRetry)}` : "No retry scheduled"}
      </OutlookCard>
      <OutlookCard label="New members" value={String(data.membersThisMonth.newMembers)}>
        Started in {month}
      </OutlookCard>
      <OutlookCard label="Cancellations" value={String(data.membersThisMonth.canceled)}>
        Canceled in {month}
        {requests.requests > 0 && (
          <Text as="span" display="block" data-testid="cancel-requests">
            {plural(requests.requests, "member asked", "members asked")} to cancel · {requests.offersAccepted} kept by an offer
            <Text as="span" display="block">
              {requests.byReason.map((r) => `${REASON_WORDS[r.reason] ?? r.reason} ${r.count}`).join(" · ")}
            </Text>
          </Text>
        )}
      </OutlookCard>
    </SimpleGrid>
  );
}

/** A cancel request's reason in the owner's words. */
const REASON_WORDS: Record<string, string> = {
  TOO_EXPENSIVE: "Too expensive",
  TOO_MUCH: "Too much",
  MOVING: "Moving",
  QUALITY: "Quality",
  DELIVERY: "Delivery",
  TAKING_A_BREAK: "Taking a break",
  OTHER: "Other",
};

/** One figure: its label, its value and a line of detail; `wide` spans both columns on a phone. */
function OutlookCard({ label, value, wide = false, children }: { label: string; value: string; wide?: boolean; children: ReactNode }) {
  return (
    <Stat.Root bg="bg" borderWidth="1px" borderColor="orange.100" rounded="xl" p="4" gridColumn={wide ? { base: "span 2", lg: "auto" } : undefined}>
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText>{value}</Stat.ValueText>
      {/* A dd, not Chakra's span: only dt and dd belong in the dl a Stat is. */}
      <Stat.HelpText as="dd" color="fg.muted" fontSize="sm" display="block">
        {children}
      </Stat.HelpText>
    </Stat.Root>
  );
}
