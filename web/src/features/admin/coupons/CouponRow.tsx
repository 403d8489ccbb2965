import { Suspense, useState } from "react";
import { Badge, Box, Button, HStack, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useFragment, useMutation } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { couponDurationLabel } from "@shared/coupon-terms.ts";
import { resultError } from "../mutationResult.ts";
import { formatDay, redemptionsLabel } from "./couponForm.ts";
import { CouponRedemptions } from "./CouponRedemptions.tsx";
import type { CouponRowFragment_coupon$key } from "./__generated__/CouponRowFragment_coupon.graphql.ts";
import type { CouponRowToggleMutation } from "./__generated__/CouponRowToggleMutation.graphql.ts";
import type { CouponRowDeleteMutation } from "./__generated__/CouponRowDeleteMutation.graphql.ts";

/**
 * One coupon of a coupons screen (spec §2: Code, Type, Value, Active Yes/No, Activate/Deactivate and Delete) with its
 * terms (duration, expiry, plans, redemptions of the limit) and, on demand, who redeemed it. `planNames`: a
 * business's plans by id (null on the platform screen, whose coupons apply to every plan).
 */
export function CouponRow({
  coupon: key,
  layout,
  planNames,
  onDeleted,
}: {
  coupon: CouponRowFragment_coupon$key;
  layout: "table" | "card";
  planNames: ReadonlyMap<number, string> | null;
  onDeleted: () => void;
}) {
  const c = useFragment(
    graphql`
      fragment CouponRowFragment_coupon on Coupon {
        id
        code
        type
        value
        active
        duration
        durationMonths
        expiresOn
        maxRedemptions
        redemptionCount
        planIds
      }
    `,
    key,
  );
  const [showRedemptions, setShowRedemptions] = useState(false);
  const [toggle] = useMutation<CouponRowToggleMutation>(graphql`
    # The one field the row shows that changes, with an optimistic answer.
    mutation CouponRowToggleMutation($input: ToggleCouponInput!) {
      toggleCoupon(input: $input) {
        __typename
        ... on ToggleCouponSuccess {
          data {
            id
            active
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const [remove] = useMutation<CouponRowDeleteMutation>(graphql`
    # Nothing to show comes back: the list is fetched again without the coupon.
    mutation CouponRowDeleteMutation($input: DeleteCouponInput!) {
      deleteCoupon(input: $input) {
        __typename
        ... on Error {
          message
        }
      }
    }
  `);
  const onToggle = () =>
    toggle({
      variables: { input: { id: c.id } },
      optimisticResponse: { toggleCoupon: { __typename: "ToggleCouponSuccess", data: { id: c.id, active: !c.active } } },
      onCompleted: ({ toggleCoupon }) => {
        const failure = resultError(toggleCoupon);
        if (failure) window.alert(failure);
      },
    });
  const onDelete = () => {
    if (!window.confirm(`Delete coupon ${c.code}?`)) return;
    remove({
      variables: { input: { id: c.id } },
      onCompleted: ({ deleteCoupon }) => {
        const failure = resultError(deleteCoupon);
        if (failure) return window.alert(failure);
        onDeleted();
      },
    });
  };

  const typeLabel = c.type === "PERCENT" ? "Percent" : "Fixed";
  const value = c.type === "PERCENT" ? `${c.value}%` : formatCents(c.value);
  const duration = couponDurationLabel({ duration: c.duration, durationMonths: c.durationMonths });
  const expires = c.expiresOn ? formatDay(c.expiresOn) : "Never";
  const plans = planNames && (c.planIds.length === 0 ? "All plans" : c.planIds.map((id) => planNames.get(id) ?? `Plan ${id}`).join(", "));
  const redemptions = redemptionsLabel(c.redemptionCount, c.maxRedemptions);
  const actions = (
    <>
      <Button size="xs" variant="outline" onClick={onToggle}>
        {c.active ? "Deactivate" : "Activate"}
      </Button>
      <Button size="xs" variant="outline" colorPalette="red" onClick={onDelete}>
        Delete
      </Button>
    </>
  );
  // The count opens the list of who redeemed it.
  const redemptionsToggle = (
    <Button size="xs" variant="subtle" onClick={() => setShowRedemptions((v) => !v)} aria-expanded={showRedemptions} aria-label={`Redemptions of ${c.code}: ${redemptions}`}>
      {redemptions} {showRedemptions ? "▴" : "▾"}
    </Button>
  );
  const redemptionList = showRedemptions && (
    <Suspense fallback={<Text color="fg.muted">Loading redemptions...</Text>}>
      <CouponRedemptions couponId={c.id} />
    </Suspense>
  );

  if (layout === "card") {
    return (
      <Box borderWidth="1px" rounded="md" p="3" data-testid="coupon-card">
        <HStack justify="space-between" align="flex-start" gap="3">
          <Text fontFamily="mono" fontWeight="semibold">
            {c.code}
          </Text>
          <Badge colorPalette={c.active ? "green" : "gray"}>Active {c.active ? "Yes" : "No"}</Badge>
        </HStack>
        <Stack gap="0" fontSize="sm" color="fg.muted" mt="1">
          <Text>
            {typeLabel} · {value} · {duration}
          </Text>
          <Text>Expires: {expires}</Text>
          {plans && <Text>Plans: {plans}</Text>}
        </Stack>
        <HStack gap="2" mt="1">
          <Text fontSize="sm" color="fg.muted">
            Redemptions:
          </Text>
          {redemptionsToggle}
        </HStack>
        <HStack gap="2" mt="2" wrap="wrap">
          {actions}
        </HStack>
        {redemptionList && <Box mt="3">{redemptionList}</Box>}
      </Box>
    );
  }
  return (
    <>
      <Table.Row data-testid="coupon-row">
        <Table.Cell fontFamily="mono" fontWeight="semibold">
          {c.code}
        </Table.Cell>
        <Table.Cell>{typeLabel}</Table.Cell>
        <Table.Cell>{value}</Table.Cell>
        <Table.Cell whiteSpace="nowrap">{duration}</Table.Cell>
        <Table.Cell whiteSpace="nowrap">{expires}</Table.Cell>
        {plans !== null && <Table.Cell>{plans}</Table.Cell>}
        <Table.Cell whiteSpace="nowrap">{redemptionsToggle}</Table.Cell>
        <Table.Cell>
          <Badge colorPalette={c.active ? "green" : "gray"}>{c.active ? "Yes" : "No"}</Badge>
        </Table.Cell>
        <Table.Cell>
          <Box display="flex" gap="2">
            {actions}
          </Box>
        </Table.Cell>
      </Table.Row>
      {redemptionList && (
        <Table.Row>
          <Table.Cell colSpan={plans !== null ? 9 : 8} bg="bg.subtle">
            {redemptionList}
          </Table.Cell>
        </Table.Row>
      )}
    </>
  );
}
