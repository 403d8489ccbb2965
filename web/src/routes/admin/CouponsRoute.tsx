import { startTransition, Suspense, useState } from "react";
import { Badge, Box, Button, Checkbox, Field, HStack, Input, NativeSelect, SimpleGrid, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { parseCouponForm, type CouponType } from "../../features/admin/coupons/couponForm.ts";
import { resultError } from "../../features/admin/mutationResult.ts";
import { formatCents } from "@shared/money.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, EmptyLine, Panel } from "../../ui/admin/AdminPage.tsx";
import type { CouponsRouteQuery, CouponsRouteQuery$data } from "./__generated__/CouponsRouteQuery.graphql.ts";
import type { CouponsRouteCreateMutation } from "./__generated__/CouponsRouteCreateMutation.graphql.ts";
import type { CouponsRouteToggleMutation } from "./__generated__/CouponsRouteToggleMutation.graphql.ts";
import type { CouponsRouteDeleteMutation } from "./__generated__/CouponsRouteDeleteMutation.graphql.ts";
import { TableHead } from "../../ui/admin/TableHead.tsx";

type CouponRow = CouponsRouteQuery$data["coupons"]["edges"][number]["node"];

/** /admin/coupons (admins). */
export default function CouponsRoute() {
  const [fetchKey, setFetchKey] = useState(0);
  return (
    <AdminPage title="Coupons" description="Discount codes members can enter at checkout.">
      <CreateCouponForm onCreated={() => startTransition(() => setFetchKey((n) => n + 1))} />
      <Suspense fallback={<Text color="fg.muted">Loading coupons...</Text>}>
        <CouponTable fetchKey={fetchKey} onChanged={() => startTransition(() => setFetchKey((n) => n + 1))} />
      </Suspense>
    </AdminPage>
  );
}

function CreateCouponForm({ onCreated }: { onCreated: () => void }) {
  const [code, setCode] = useState("");
  const [type, setType] = useState<CouponType>("PERCENT");
  const [value, setValue] = useState("");
  const [active, setActive] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<CouponsRouteCreateMutation>(graphql`
    # Nothing to show comes back: the table is fetched again, a new code's place in it being the server's order.
    mutation CouponsRouteCreateMutation($input: CreateCouponInput!) {
      createCoupon(input: $input) {
        __typename
        ... on Error {
          message
        }
      }
    }
  `);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseCouponForm({ code, type, value });
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    commit({
      variables: { input: { code: parsed.code, type, value: parsed.value, active } },
      onCompleted: ({ createCoupon }) => {
        const failure = resultError(createCoupon);
        if (failure) return window.alert(`Failed to create coupon: ${failure}`);
        setCode("");
        setValue("");
        onCreated();
      },
      onError: (e) => window.alert(`Failed to create coupon: ${e.message}`),
    });
  };
  return (
    <Panel title="Create Coupon">
      <form onSubmit={submit} noValidate>
<Stack gap="4">
        <SimpleGrid columns={{ base: 1, md: 4 }} gap="4" alignItems="end">
          <Field.Root>
            <Field.Label>Code</Field.Label>
            <Input value={code} onChange={(e) => setCode(e.target.value.toUpperCase())} textTransform="uppercase" placeholder="SPRING10" />
          </Field.Root>
          <Field.Root>
            <Field.Label>Type</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={type} onChange={(e) => setType(e.currentTarget.value as CouponType)}>
                <option value="PERCENT">Percent</option>
                <option value="FIXED">Fixed amount</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root>
            <Field.Label>{type === "PERCENT" ? "Value (%)" : "Value ($)"}</Field.Label>
            <Input type="number" min="0" step={type === "PERCENT" ? "1" : "0.01"} value={value} onChange={(e) => setValue(e.target.value)} />
          </Field.Root>
          <Checkbox.Root checked={active} onCheckedChange={(e) => setActive(!!e.checked)} pb="2">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Active</Checkbox.Label>
          </Checkbox.Root>
        </SimpleGrid>
        {error && (
          <Text color="red.600" role="alert">
            {error}
          </Text>
        )}
        <HStack>
          <Button type="submit" colorPalette="orange" loading={busy}>
            Create Coupon
          </Button>
        </HStack>
      </Stack>
      </form>
    </Panel>
  );
}

function couponValue(c: CouponRow): string {
  return c.type === "PERCENT" ? `${c.value}%` : formatCents(c.value);
}

function CouponTable({ fetchKey, onChanged }: { fetchKey: number; onChanged: () => void }) {
  const data = useRouteQuery<CouponsRouteQuery>(
    graphql`
      query CouponsRouteQuery {
        coupons(first: 200) {
          edges {
            node {
              id
              code
              type
              value
              active
            }
          }
        }
      }
    `,
    {},
    { fetchKey: fetchKey || undefined, fetchPolicy: "store-and-network" },
  );
  const [toggle] = useMutation<CouponsRouteToggleMutation>(graphql`
    # The one field the coupon's row shows (the table's rows have no fragment of their own), with an optimistic answer.
    mutation CouponsRouteToggleMutation($input: ToggleCouponInput!) {
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
  const [remove] = useMutation<CouponsRouteDeleteMutation>(graphql`
    # Nothing to show comes back: the table is fetched again without the coupon.
    mutation CouponsRouteDeleteMutation($input: DeleteCouponInput!) {
      deleteCoupon(input: $input) {
        __typename
        ... on Error {
          message
        }
      }
    }
  `);
  const onToggle = (c: CouponRow) =>
    toggle({
      variables: { input: { id: c.id } },
      optimisticResponse: { toggleCoupon: { __typename: "ToggleCouponSuccess", data: { id: c.id, active: !c.active } } },
      onCompleted: ({ toggleCoupon }) => {
        const failure = resultError(toggleCoupon);
        if (failure) window.alert(failure);
      },
    });
  const onDelete = (c: CouponRow) => {
    if (!window.confirm(`Delete coupon ${c.code}?`)) return;
    remove({
      variables: { input: { id: c.id } },
      onCompleted: ({ deleteCoupon }) => {
        const failure = resultError(deleteCoupon);
        if (failure) return window.alert(failure);
        onChanged();
      },
    });
  };
  const coupons = data.coupons.edges.map((e) => e.node);
  return (
    <Panel title="All coupons">
      {coupons.length === 0 ? (
        <EmptyLine>Nothing yet</EmptyLine>
      ) : (
        <>
        <Stack hideFrom="md" gap="2">
          {coupons.map((c) => (
            <HStack key={c.id} borderWidth="1px" rounded="md" p="3" justify="space-between" wrap="wrap" data-testid="coupon-card">
              <Box>
                <Text fontFamily="mono" fontWeight="semibold">
                  {c.code}
                </Text>
                <Text fontSize="sm" color="fg.muted">
                  {c.type === "PERCENT" ? "Percent" : "Fixed"} · {couponValue(c)} · Active {c.active ? "Yes" : "No"}
                </Text>
              </Box>
              <HStack gap="2">
                <Button size="xs" variant="outline" onClick={() => onToggle(c)}>
                  {c.active ? "Deactivate" : "Activate"}
                </Button>
                <Button size="xs" variant="outline" colorPalette="red" onClick={() => onDelete(c)}>
                  Delete
                </Button>
              </HStack>
            </HStack>
          ))}
        </Stack>
        <Table.ScrollArea hideBelow="md" tabIndex={0} role="region" aria-label="Coupons">
          <Table.Root size="sm">
            <TableHead columns={["Code", "Type", "Value", "Active", "Actions"]} />
            <Table.Body>
              {coupons.map((c) => (
                <Table.Row key={c.id} data-testid="coupon-row">
                  <Table.Cell fontFamily="mono" fontWeight="semibold">
                    {c.code}
                  </Table.Cell>
                  <Table.Cell>{c.type === "PERCENT" ? "Percent" : "Fixed"}</Table.Cell>
                  <Table.Cell>{couponValue(c)}</Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={c.active ? "green" : "gray"}>{c.active ? "Yes" : "No"}</Badge>
                  </Table.Cell>
                  <Table.Cell>
                    <Box display="flex" gap="2">
                      <Button size="xs" variant="outline" onClick={() => onToggle(c)}>
                        {c.active ? "Deactivate" : "Activate"}
                      </Button>
                      <Button size="xs" variant="outline" colorPalette="red" onClick={() => onDelete(c)}>
                        Delete
                      </Button>
                    </Box>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        </>
      )}
    </Panel>
  );
}
