import { HStack, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { MODE_NAMES } from "@shared/fulfillment.ts";
import { monthYear } from "../../../lib/dates.ts";
import { formatDate } from "../format.ts";
import { formatDay } from "../packing/format.ts";
import { MembershipStatusBadge } from "../memberships/MembershipRow.tsx";
import { Fact, FactList } from "./FactList.tsx";
import type { MembershipDetailsFragment_membership$key } from "./__generated__/MembershipDetailsFragment_membership.graphql.ts";

const modeName = (mode: string) => MODE_NAMES[mode as keyof typeof MODE_NAMES] ?? mode;

/**
 * The membership as the server reads it: plan, mode, add-ons, where the box goes, status and dates, the next charge
 * (date and amount from the renewal pricing), skipped months, a scheduled change, the gift and the coupon. Amounts
 * are the server's; nothing here adds them up.
 */
export function MembershipDetails({ membership }: { membership: MembershipDetailsFragment_membership$key }) {
  const m = useFragment(
    graphql`
      fragment MembershipDetailsFragment_membership on Membership {
        status
        planName
        mode
        fulfillmentPoint
        totalCents
        startedAt
        canceledAt
        nextBoxDate
        isGift
        giftMessage
        couponCode
        couponTerms
        addons {
          name
          amountCents
        }
        deliveryAddress {
          fullName
          street
          apt
          city
          state
          zip
          country
          instructions
        }
        skips {
          yearMonth
        }
        nextCharge {
          date
          amountCents
          retry
        }
        pendingChange {
          effectivePeriod
          mode
          fulfillmentPoint
          plan {
            name
          }
          addons {
            name
          }
          breakdown {
            totalCents
          }
        }
      }
    `,
    membership,
  );
  const current = m.status !== "CANCELED";
  const a = m.deliveryAddress;
  const change = m.pendingChange;
  return (
    <FactList label="Membership">
      <Fact label="Status">
        <MembershipStatusBadge status={m.status} />
      </Fact>
      <Fact label="Plan">{m.planName}</Fact>
      <Fact label="Mode">{modeName(m.mode)}</Fact>
      <Fact label="Add-ons">{m.addons.length > 0 && m.addons.map((x) => `${x.name} (${formatCents(x.amountCents)})`).join(", ")}</Fact>
      {m.mode !== "SHIPPING" && <Fact label={m.mode === "PICKUP" ? "Pickup point" : "Delivery area"}>{m.fulfillmentPoint}</Fact>}
      {m.mode !== "PICKUP" && (
        <Fact label="Delivery address">
          {a && (
            <Stack gap="0">
              {a.fullName && <Text>{a.fullName}</Text>}
              <Text>{[a.street, a.apt].filter(Boolean).join(", ")}</Text>
              <Text>{[a.city, [a.state, a.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ")}</Text>
              {a.country && <Text>{a.country}</Text>}
              {a.instructions && (
                <Text fontSize="sm" fontStyle="italic">
                  Instructions: {a.instructions}
                </Text>
              )}
            </Stack>
          )}
        </Fact>
      )}
      <Fact label="Monthly amount">{formatCents(m.totalCents)}</Fact>
      <Fact label="Started">{formatDate(m.startedAt)}</Fact>
      {m.canceledAt && <Fact label="Canceled">{formatDate(m.canceledAt)}</Fact>}
      {current && <Fact label="Next box">{formatDay(m.nextBoxDate)}</Fact>}
      <Fact label="Next charge">
        {m.nextCharge && (
          <HStack gap="2" wrap="wrap" data-testid="next-charge">
            <Text>
              {formatDay(m.nextCharge.date)} · {formatCents(m.nextCharge.amountCents)}
            </Text>
            {m.nextCharge.retry && (
              <Text as="span" fontSize="sm" color="fg.muted">
                (retry of a declined charge)
              </Text>
            )}
          </HStack>
        )}
      </Fact>
      <Fact label="Skipped months">{m.skips.length > 0 && m.skips.map((s) => monthYear(s.yearMonth)).join(", ")}</Fact>
      <Fact label="Scheduled change">
        {change && (
          <Stack gap="0" data-testid="scheduled-change">
            <Text>
              From {monthYear(change.effectivePeriod)}: {change.plan.name} · {modeName(change.mode)}
              {change.fulfillmentPoint ? ` (${change.fulfillmentPoint})` : ""}
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {change.addons.length > 0 ? `Add-ons: ${change.addons.map((x) => x.name).join(", ")} · ` : ""}
              {change.breakdown ? `${formatCents(change.breakdown.totalCents)} a month` : "No longer priced: the renewal keeps the current box"}
            </Text>
          </Stack>
        )}
      </Fact>
      <Fact label="Gift">
        {m.isGift ? (
          <Stack gap="0">
            <Text>Yes</Text>
            {m.giftMessage && <Text fontStyle="italic">“{m.giftMessage}”</Text>}
          </Stack>
        ) : (
          "No"
        )}
      </Fact>
      <Fact label="Coupon">{m.couponCode && (m.couponTerms ? `${m.couponCode} · ${m.couponTerms}` : m.couponCode)}</Fact>
    </FactList>
  );
}
