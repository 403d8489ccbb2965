import { Field, NativeSelect } from "@chakra-ui/react";
import { US_STATES } from "./usStates.ts";

/**
 * The address State field of checkout (spec §2: a select of the 50 US state codes), shared with the portal's
 * Profile. A stored value outside the list (typed before the profile had the select) stays as an option, so
 * saving the profile does not drop it.
 */
export function StateSelect({ value, onChange, required = false }: { value: string; onChange: (state: string) => void; required?: boolean }) {
  const known = (US_STATES as readonly string[]).includes(value);
  return (
    <Field.Root required={required}>
      <Field.Label>
        State {required && <Field.RequiredIndicator />}
      </Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field value={value} onChange={(e) => onChange(e.target.value)} bg="bg" autoComplete="address-level1">
          <option value="">Select…</option>
          {value && !known && <option value={value}>{value}</option>}
          {US_STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
