import { useRef, useState } from "react";
import { Button, Field, HStack, Input, SimpleGrid, Stack } from "@chakra-ui/react";
import { fetchQuery, graphql, useMutation, useRelayEnvironment } from "react-relay";
import { monthYear } from "../../../lib/dates.ts";
import { InlineAlert } from "../../../ui/InlineAlert.tsx";
import { BusinessFilter } from "../BusinessFilter.tsx";
import { resultError } from "../mutationResult.ts";
import type { BusinessFilterQuery$data } from "../__generated__/BusinessFilterQuery.graphql.ts";
import { fieldOfIssue, parseFeeForm, type FeeField, type FeeFieldErrors, type FeeFormValues } from "./feeForm.ts";
import type { ScheduleFeeFormMonthQuery } from "./__generated__/ScheduleFeeFormMonthQuery.graphql.ts";
import type { ScheduleFeeFormMutation } from "./__generated__/ScheduleFeeFormMutation.graphql.ts";

const MonthQuery = graphql`
  query ScheduleFeeFormMonthQuery($businessId: ID) {
    firstSchedulableMonth(businessId: $businessId)
  }
`;

const RATE_FIELDS: { field: FeeField; label: string; placeholder: string; help: string }[] = [
  { field: "platformPercent", label: "Platform fee %", placeholder: "5", help: "Of each charge, e.g. 5" },
  { field: "platformFixed", label: "Platform fee fixed ($)", placeholder: "0.00", help: "Per charge, e.g. 0.00" },
  { field: "processingPercent", label: "Processing fee %", placeholder: "2.9", help: "Of each charge, e.g. 2.9" },
  { field: "processingFixed", label: "Processing fee fixed ($)", placeholder: "0.30", help: "Per charge, e.g. 0.30" },
];

/**
 * Schedule fees (administrators): for every business (the default) or one, from a month no business concerned has
 * begun (the server's firstSchedulableMonth, the month's default and its lower bound). Percents and dollars are
 * sent as basis points and cents; the server's field refusals show under their fields.
 */
export function ScheduleFeeForm({ businesses, firstMonth, onScheduled }: { businesses: BusinessFilterQuery$data; firstMonth: string; onScheduled: () => void }) {
  const environment = useRelayEnvironment();
  const [values, setValues] = useState<FeeFormValues>({ business: "", month: firstMonth, platformPercent: "", platformFixed: "", processingPercent: "", processingFixed: "" });
  const [minMonth, setMinMonth] = useState(firstMonth);
  const [fieldErrors, setFieldErrors] = useState<FeeFieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The business whose first month was asked last: an earlier answer arriving late is dropped.
  const asked = useRef("");
  const [commit, busy] = useMutation<ScheduleFeeFormMutation>(graphql`
    # The schedules table is read again: a schedule replaces one of the same business and month.
    mutation ScheduleFeeFormMutation($input: ScheduleFeeInput!) {
      scheduleFee(input: $input) {
        __typename
        ... on ScheduleFeeSuccess {
          data {
            effectivePeriod
          }
        }
        ... on ValidationError {
          issues {
            path
            message
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);

  const set = (field: FeeField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setFieldErrors((e) => ({ ...e, [field]: undefined }));
  };

  /** A new business: its own first month becomes the month's default and lower bound. */
  const chooseBusiness = (business: string) => {
    set("business", business);
    asked.current = business;
    fetchQuery<ScheduleFeeFormMonthQuery>(environment, MonthQuery, { businessId: business || null }, { fetchPolicy: "network-only" }).subscribe({
      next: ({ firstSchedulableMonth }) => {
        if (asked.current !== business) return;
        setMinMonth(firstSchedulableMonth);
        setValues((v) => ({ ...v, month: firstSchedulableMonth }));
      },
      error: () => undefined, // the month stays as it was; the server checks it on submit
    });
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    const parsed = parseFeeForm(values);
    if (!parsed.ok) return setFieldErrors(parsed.errors);
    setFieldErrors({});
    commit({
      variables: { input: parsed.input },
      onCompleted: ({ scheduleFee: result }) => {
        if (result.data) {
          setDone(`Fees scheduled from ${monthYear(result.data.effectivePeriod)}.`);
          return onScheduled();
        }
        const byField: FeeFieldErrors = {};
        for (const issue of result.issues ?? []) {
          const field = fieldOfIssue(issue.path);
          if (field && !byField[field]) byField[field] = issue.message;
        }
        setFieldErrors(byField);
        setError(resultError(result, "Could not schedule the fees"));
      },
      onError: (e) => setError(e.message || "Could not schedule the fees"),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Schedule fees">
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <Field.Root invalid={!!fieldErrors.business}>
            <Field.Label>Business</Field.Label>
            <BusinessFilter businesses={businesses} value={values.business} onChange={chooseBusiness} width="full" allLabel="Default (every business)" />
            {fieldErrors.business && <Field.ErrorText>{fieldErrors.business}</Field.ErrorText>}
          </Field.Root>
          <Field.Root invalid={!!fieldErrors.month}>
            <Field.Label>Month</Field.Label>
            <Input type="month" value={values.month} min={minMonth} onChange={(e) => set("month", e.target.value)} />
            {fieldErrors.month ? <Field.ErrorText>{fieldErrors.month}</Field.ErrorText> : <Field.HelperText>From {monthYear(minMonth)} at the earliest: a month that has begun keeps its fees.</Field.HelperText>}
          </Field.Root>
          {RATE_FIELDS.map(({ field, label, placeholder, help }) => (
            <Field.Root key={field} invalid={!!fieldErrors[field]}>
              <Field.Label>{label}</Field.Label>
              <Input inputMode="decimal" autoComplete="off" placeholder={placeholder} value={values[field]} onChange={(e) => set(field, e.target.value)} />
              {fieldErrors[field] ? <Field.ErrorText>{fieldErrors[field]}</Field.ErrorText> : <Field.HelperText>{help}</Field.HelperText>}
            </Field.Root>
          ))}
        </SimpleGrid>
        <InlineAlert>{error}</InlineAlert>
        <InlineAlert status="success">{done}</InlineAlert>
        <HStack>
          <Button type="submit" colorPalette="orange" loading={busy}>
            Schedule fees
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
