import { useState } from "react";
import { Button, Checkbox, Field, Fieldset, HStack, Input, NativeSelect, SimpleGrid, Stack, Text, Wrap } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { resultError } from "../mutationResult.ts";
import { parseCouponForm, parseCouponTerms, type CouponDuration, type CouponType } from "./couponForm.ts";
import type { CreateCouponFormMutation } from "./__generated__/CreateCouponFormMutation.graphql.ts";

/** A plan a business's coupon may be limited to. */
export interface CouponPlanOption {
  databaseId: number;
  name: string;
}

/**
 * Spec §2's 'Create Coupon' form (Code, Type, Value, Active) with the coupon's terms: duration (once, N months,
 * forever), an optional expiry day and redemption limit, and for a business's own coupon an optional plan list.
 * `businessId` null: a platform coupon (administrators). Failures alert 'Failed to create coupon: {reason}' (spec §8).
 */
export function CreateCouponForm({ businessId, plans, onCreated }: { businessId: number | null; plans: readonly CouponPlanOption[] | null; onCreated: () => void }) {
  const [code, setCode] = useState("");
  const [type, setType] = useState<CouponType>("PERCENT");
  const [value, setValue] = useState("");
  const [active, setActive] = useState(true);
  const [duration, setDuration] = useState<CouponDuration>("FOREVER");
  const [months, setMonths] = useState("3");
  const [expiresOn, setExpiresOn] = useState("");
  const [maxRedemptions, setMaxRedemptions] = useState("");
  const [planIds, setPlanIds] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<CreateCouponFormMutation>(graphql`
    # Nothing to show comes back: the list is fetched again, a new code's place in it being the server's order.
    mutation CreateCouponFormMutation($input: CreateCouponInput!) {
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
    const terms = parseCouponTerms({ duration, months, expiresOn, maxRedemptions });
    if (!terms.ok) return setError(terms.error);
    setError(null);
    const { ok: _ok, ...termsInput } = terms;
    commit({
      variables: {
        input: { businessId: businessId === null ? null : String(businessId), code: parsed.code, type, value: parsed.value, active, ...termsInput, planIds: planIds.map(String) },
      },
      onCompleted: ({ createCoupon }) => {
        const failure = resultError(createCoupon);
        if (failure) return window.alert(`Failed to create coupon: ${failure}`);
        setCode("");
        setValue("");
        setExpiresOn("");
        setMaxRedemptions("");
        setPlanIds([]);
        onCreated();
      },
      onError: (e) => window.alert(`Failed to create coupon: ${e.message}`),
    });
  };
  return (
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
        <SimpleGrid columns={{ base: 1, md: 4 }} gap="4" alignItems="start">
          <Field.Root>
            <Field.Label>Duration</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={duration} onChange={(e) => setDuration(e.currentTarget.value as CouponDuration)}>
                <option value="FOREVER">Every charge (forever)</option>
                <option value="ONCE">First charge only (once)</option>
                <option value="REPEATING">A number of months</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {duration === "REPEATING" && (
            <Field.Root>
              <Field.Label>Months</Field.Label>
              <Input type="number" min="2" max="36" step="1" value={months} onChange={(e) => setMonths(e.target.value)} />
              <Field.HelperText>Charges discounted, the first one included (2 to 36).</Field.HelperText>
            </Field.Root>
          )}
          <Field.Root>
            <Field.Label>Expires on (optional)</Field.Label>
            <Input type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
            <Field.HelperText>Accepted until the end of that day.</Field.HelperText>
          </Field.Root>
          <Field.Root>
            <Field.Label>Maximum redemptions (optional)</Field.Label>
            <Input type="number" min="1" step="1" value={maxRedemptions} onChange={(e) => setMaxRedemptions(e.target.value)} placeholder="No limit" />
          </Field.Root>
        </SimpleGrid>
        {plans && plans.length > 0 && (
          <Fieldset.Root>
            <Fieldset.Legend>Plans (none checked: every plan)</Fieldset.Legend>
            <Wrap gap="4">
              {plans.map((plan) => (
                <Checkbox.Root
                  key={plan.databaseId}
                  checked={planIds.includes(plan.databaseId)}
                  onCheckedChange={(e) => setPlanIds((ids) => (e.checked ? [...ids, plan.databaseId] : ids.filter((id) => id !== plan.databaseId)))}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{plan.name}</Checkbox.Label>
                </Checkbox.Root>
              ))}
            </Wrap>
          </Fieldset.Root>
        )}
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
  );
}
