import type { ReactNode } from "react";
import { Stack, Table } from "@chakra-ui/react";
import { EmptyLine } from "../../../ui/admin/AdminPage.tsx";
import { TableHead } from "../../../ui/admin/TableHead.tsx";

/** The columns of a coupons table: a business's own coupons add their plans. */
const couponColumns = (withPlans: boolean) =>
  ["Code", "Type", "Value", "Duration", "Expires", ...(withPlans ? ["Plans"] : []), "Redemptions", "Active", "Actions"] as const;

/**
 * A coupons list: cards on small screens, a table from md up (the rows are CouponRow's, in each layout), or
 * spec §8's 'Nothing yet'.
 */
export function CouponTable({ count, withPlans, cards, rows }: { count: number; withPlans: boolean; cards: ReactNode; rows: ReactNode }) {
  if (count === 0) return <EmptyLine>Nothing yet</EmptyLine>;
  return (
    <>
      <Stack hideFrom="md" gap="2">
        {cards}
      </Stack>
      <Table.ScrollArea hideBelow="md" tabIndex={0} role="region" aria-label="Coupons">
        <Table.Root size="sm">
          <TableHead columns={couponColumns(withPlans)} />
          <Table.Body>{rows}</Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </>
  );
}
