import { Field, Input, SimpleGrid, Stack, Textarea } from "@chakra-ui/react";
import { StateSelect } from "../features/checkout/StateSelect.tsx";
import type { SelectionAddress } from "../lib/selection.ts";

/** An address with nothing typed yet (the country the businesses ship in filled in). */
export const EMPTY_ADDRESS: SelectionAddress = { fullName: "", phone: "", street: "", apt: "", city: "", state: "", zip: "", country: "United States" };

/** The server's limit of delivery instructions (api/users/service.ts). */
const INSTRUCTIONS_MAX = 500;

/** A field's refusal as the server named it (ValidationError issues), by address part. */
export type AddressFieldErrors = Partial<Record<keyof SelectionAddress, string>>;

/**
 * The address fields of checkout's step 1 (spec §2: full name, phone, street, optional apt, city, a select of the US
 * states, zip, country; delivery adds optional instructions), shared with the portal's "Change address" dialog.
 * `narrow`: laid out for a dialog (never three columns). `errors` marks the parts the server refused. `nameLabel`:
 * the portal says "Name on the address" (beside the member's own name); checkout keeps spec §2's "Full name".
 */
export function AddressFields({ address, onChange, instructions = false, narrow = false, errors = {}, nameLabel = "Full name" }: {
  address: SelectionAddress;
  onChange: (patch: Partial<SelectionAddress>) => void;
  instructions?: boolean;
  narrow?: boolean;
  errors?: AddressFieldErrors;
  nameLabel?: string;
}) {
  const field = (key: keyof SelectionAddress, label: string, opts: { required?: boolean; autoComplete?: string; type?: string } = {}) => {
    const required = opts.required ?? true;
    return (
      <Field.Root required={required} invalid={!!errors[key]}>
        <Field.Label>
          {label} {required && <Field.RequiredIndicator />}
        </Field.Label>
        <Input type={opts.type ?? "text"} autoComplete={opts.autoComplete} value={address[key] ?? ""} onChange={(e) => onChange({ [key]: e.target.value })} bg="bg" />
        {errors[key] && <Field.ErrorText>{errors[key]}</Field.ErrorText>}
      </Field.Root>
    );
  };

  return (
    <Stack gap="4">
      <SimpleGrid columns={narrow ? { base: 1, sm: 2 } : { base: 1, md: 2 }} gap="4">
        {field("fullName", nameLabel, { autoComplete: "name" })}
        {field("phone", "Phone", { autoComplete: "tel", type: "tel" })}
      </SimpleGrid>
      {field("street", "Street address", { autoComplete: "address-line1" })}
      {field("apt", "Apt, suite, unit (optional)", { required: false, autoComplete: "address-line2" })}
      {narrow ? (
        <>
          {field("city", "City", { autoComplete: "address-level2" })}
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <StateSelect required value={address.state} onChange={(state) => onChange({ state })} />
            {field("zip", "Zip code", { autoComplete: "postal-code" })}
          </SimpleGrid>
        </>
      ) : (
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
          {field("city", "City", { autoComplete: "address-level2" })}
          <StateSelect required value={address.state} onChange={(state) => onChange({ state })} />
          {field("zip", "Zip code", { autoComplete: "postal-code" })}
        </SimpleGrid>
      )}
      {field("country", "Country", { autoComplete: "country-name" })}
      {instructions && (
        <Field.Root>
          <Field.Label>Delivery instructions (optional)</Field.Label>
          <Textarea value={address.instructions ?? ""} onChange={(e) => onChange({ instructions: e.target.value })} maxLength={INSTRUCTIONS_MAX} rows={3} bg="bg" placeholder="Gate code, where to leave the box…" />
        </Field.Root>
      )}
    </Stack>
  );
}
