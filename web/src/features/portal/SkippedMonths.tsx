import { Button, HStack, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { SkippedMonthsFragment_membership$key } from "./__generated__/SkippedMonthsFragment_membership.graphql.ts";
import type { SkippedMonthsUnskipMutation } from "./__generated__/SkippedMonthsUnskipMutation.graphql.ts";
import { monthDayOrdinal, monthOnly, monthYear } from "../../lib/dates.ts";
import { commitAsync } from "../../lib/mutations.ts";

const SkippedMonthsFragment = graphql`
  fragment SkippedMonthsFragment_membership on Membership {
    id
    skips {
      yearMonth
    }
    skipTarget {
      month
      resumeDate
    }
    skipWindow {
      open
    }
    pausedThrough
    resumeDate
  }
`;

const UnskipMutation = graphql`
  mutation SkippedMonthsUnskipMutation($input: UnskipMonthInput!) {
    unskipMonth(input: $input) {
      __typename
      ... on UnskipMonthSuccess {
        data {
          months
          membership {
            # The card shows the month back on (and its next box) as soon as the server has it.
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** What taking a skip back came to: the months back on (ok), or the server's refusal. */
type UnskipOutcome = { ok: boolean; text: string };

/**
 * A current membership's skips to come: "Paused until {Month} {day}" while its next box is skipped (the server's
 * pause and date), then each skipped month from the next box's on, with "Unskip" to take it back (inside the skip
 * window; the server refuses a month already packed or paid). `onOutcome` hands the card what came of an unskip.
 */
export function SkippedMonths({ membership, onOutcome }: { membership: SkippedMonthsFragment_membership$key; onOutcome: (outcome: UnskipOutcome | null) => void }) {
  const m = useFragment(SkippedMonthsFragment, membership);
  const environment = useRelayEnvironment();
  const [busy, setBusy] = useState<string | null>(null);
  // Months before the one a skip now pauses are behind the member (or frozen): the server's target draws the line.
  const upcoming = m.skips.map((s) => s.yearMonth).filter((month) => month >= m.skipTarget.month);
  // A pause of the next box's month alone: payments resume the month after, as "Skip a month" said.
  const single = m.pausedThrough === m.skipTarget.month;
  if (!m.pausedThrough && upcoming.length === 0) return null;

  async function unskip(month: string) {
    setBusy(month);
    onOutcome(null);
    try {
      const res = await commitAsync<SkippedMonthsUnskipMutation>(environment, UnskipMutation, { input: { subscriptionId: m.id, month } });
      const r = res.unskipMonth;
      if (!r.data) onOutcome({ ok: false, text: ("message" in r && r.message) || "Failed to take back this skip" });
      else onOutcome({ ok: true, text: `Your ${r.data.months.map(monthOnly).join(" and ")} box is back on.` });
    } catch (e) {
      onOutcome({ ok: false, text: (e as Error).message || "Failed to take back this skip" });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack gap="1" color="orange.700">
      {m.pausedThrough && m.resumeDate && (
        <Text fontWeight="semibold" data-testid="paused-until">
          Paused until {monthDayOrdinal(m.resumeDate)}
        </Text>
      )}
      {upcoming.map((month) => (
        <HStack key={month} gap="2" wrap="wrap">
          <Text data-testid="skipped-month">
            Skipped: {monthYear(month)}
            {single && month === m.skipTarget.month ? ` · payments resume ${monthDayOrdinal(m.skipTarget.resumeDate)}` : ""}
          </Text>
          <Button size="xs" variant="outline" aria-label={`Unskip ${monthYear(month)}`} disabled={!m.skipWindow.open || (busy !== null && busy !== month)} loading={busy === month} onClick={() => void unskip(month)}>
            Unskip
          </Button>
        </HStack>
      ))}
    </Stack>
  );
}
