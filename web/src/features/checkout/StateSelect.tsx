import { Field, NativeSelect } from "@chakra-ui/react";
import { stateLabel, US_STATES } from "./usStates.ts";

/**
 * The address State field of checkout (spec §2: a select of the 50 US state codes, and DC), shared with the portal's
 * Profile. Options read "OH — Ohio"; their values are the codes. A stored value outside the list (typed before the profile had the select) stays as an option, so
 * saving the profile does not drop it.
 */
export function StateSelect({ value, onChange, required = false }: { value: string; onChange: (state: string) => void; required?: boolean }) {
  const known = US_STATES.some(([code]) => code === value);
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
            <option key={s[0]} value={s[0]}>
              {stateLabel(s)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
