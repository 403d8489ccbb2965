import type { ReactNode } from "react";
import { HStack, IconButton, Input } from "@chakra-ui/react";
import { shiftMonth } from "../../lib/dates.ts";

const YEAR_MONTH = /^\d{4}-\d{2}$/;

/**
 * The month an admin panel or page shows: ‹ previous month, the month field (named `label`), next month ›, then
 * the panel's own actions (its Download CSV). `max`: the last month there is (next month is off there, and the
 * field's picker stops at it). A half-typed month in the field changes nothing.
 */
export function MonthStepper({
  month,
  onChange,
  label,
  max,
  className,
  children,
}: {
  /** YYYY-MM. */
  month: string;
  onChange: (month: string) => void;
  label: string;
  max?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <HStack className={className} gap="2" wrap="wrap">
      <IconButton size="sm" variant="outline" aria-label="Previous month" onClick={() => onChange(shiftMonth(month, -1))}>
        ‹
      </IconButton>
      <Input
        type="month"
        size="sm"
        w="44"
        aria-label={label}
        value={month}
        max={max}
        onChange={(e) => {
          if (YEAR_MONTH.test(e.target.value)) onChange(e.target.value);
        }}
      />
      <IconButton size="sm" variant="outline" aria-label="Next month" disabled={max !== undefined && month >= max} onClick={() => onChange(shiftMonth(month, 1))}>
        ›
      </IconButton>
      {children}
    </HStack>
  );
}
