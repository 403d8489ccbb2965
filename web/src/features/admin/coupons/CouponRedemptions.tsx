import { Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { formatDate } from "../format.ts";
import { TableHead } from "../../../ui/admin/TableHead.tsx";
import type { CouponRedemptionsQuery } from "./__generated__/CouponRedemptionsQuery.graphql.ts";

/** Months used: the charges made with the coupon, of how many it discounts ("2 of 3"; forever: "2"). */
const monthsUsed = (used: number, left: number | null | undefined) => (left == null ? String(used) : `${used} of ${used + left}`);

/** Who redeemed a coupon, newest first: the member, the date, the months used (read when the row is opened). */
export function CouponRedemptions({ couponId }: { couponId: string }) {
  const data = useLazyLoadQuery<CouponRedemptionsQuery>(
    graphql`
      query CouponRedemptionsQuery($id: ID!) {
        node(id: $id) {
          ... on Coupon {
            isPlatform
            redemptions(first: 100) {
              edges {
                node {
                  databaseId
                  username
                  memberName
                  businessName
                  redeemedAt
                  chargesUsed
                  chargesLeft
                }
              }
            }
          }
        }
      }
    `,
    { id: couponId },
    { fetchPolicy: "store-and-network" },
  );
  const rows = data.node?.redemptions?.edges.map((e) => e.node) ?? [];
  if (rows.length === 0) return <Text color="fg.muted">No redemptions yet</Text>;
  const member = (r: (typeof rows)[number]) => (r.memberName ? `${r.memberName} (${r.username})` : r.username);
  const platform = data.node?.isPlatform ?? false;
  return (
    <>
      <Stack hideFrom="md" gap="1" fontSize="sm" data-testid="coupon-redemptions">
        {rows.map((r) => (
          <Text key={r.databaseId}>
            {member(r)} · {formatDate(r.redeemedAt)} · months used {monthsUsed(r.chargesUsed, r.chargesLeft)}
            {platform ? ` · ${r.businessName}` : ""}
          </Text>
        ))}
      </Stack>
      <Table.Root size="sm" hideBelow="md" data-testid="coupon-redemptions" aria-label="Redemptions">
        <TableHead columns={platform ? ["Member", "Business", "Redeemed", "Months used"] : ["Member", "Redeemed", "Months used"]} />
        <Table.Body>
          {rows.map((r) => (
            <Table.Row key={r.databaseId}>
              <Table.Cell>{member(r)}</Table.Cell>
              {platform && <Table.Cell>{r.businessName}</Table.Cell>}
              <Table.Cell whiteSpace="nowrap">{formatDate(r.redeemedAt)}</Table.Cell>
              <Table.Cell>{monthsUsed(r.chargesUsed, r.chargesLeft)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </>
  );
}
