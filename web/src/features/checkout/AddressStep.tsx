import { Heading, Stack } from "@chakra-ui/react";
import type { FulfillmentModeName } from "@shared/fulfillment.ts";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { graphql, readInlineData, useRelayEnvironment } from "react-relay";
import type { AddressStepFragment_viewer$key } from "./__generated__/AddressStepFragment_viewer.graphql.ts";
import type { AddressStepSaveProfileMutation } from "./__generated__/AddressStepSaveProfileMutation.graphql.ts";
import { readSavedAddress } from "./savedAddress.ts";
import { commitAsync } from "../../lib/mutations.ts";
import type { SelectionAddress } from "../../lib/selection.ts";
import { AddressFields } from "../../ui/AddressFields.tsx";
import { FormError } from "../../ui/FormError.tsx";
import { StepButtons } from "./StepButtons.tsx";

export { EMPTY_ADDRESS } from "../../ui/AddressFields.tsx";

const SaveProfileMutation = graphql`
  mutation AddressStepSaveProfileMutation($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      __typename
      ... on UpdateProfileSuccess {
        data {
          ...AddressStepFragment_viewer
        }
      }
    }
  }
`;

/** What the step fills in from a signed-in member's profile (and what saving the step changes there). */
const AddressStepViewerFragment = graphql`
  fragment AddressStepFragment_viewer on User @inline {
    name
    phone
    address {
      ...savedAddress_address
    }
  }
`;

/** The profile's address for the step, its blank name and phone filled from the profile's own; null without one. */
export function profileAddress(viewer: AddressStepFragment_viewer$key): SelectionAddress | null {
  const { name, phone, address } = readInlineData(AddressStepViewerFragment, viewer);
  if (!address) return null;
  const a = readSavedAddress(address);
  return { ...a, fullName: a.fullName || name || "", phone: a.phone || phone || "", country: a.country || "United States" };
}

/** Spec §9 address save delay while editing. */
const ADDRESS_SAVE_DELAY_MS = 800;

interface Props {
  address: SelectionAddress;
  /** Delivery asks for optional instructions for the driver. */
  mode: FulfillmentModeName;
  onChange: (patch: Partial<SelectionAddress>) => void;
  loggedIn: boolean;
  onBack: () => void;
  onContinue: () => void;
}

/** Step 1 'Address': saved to the profile 800 ms after editing and at once on Continue (failures ignored). */
export function AddressStep({ address, mode, onChange, loggedIn, onBack, onContinue }: Props) {
  const environment = useRelayEnvironment();
  const [error, setError] = useState<string | null>(null);
  const first = useRef(true);

  const save = (a: SelectionAddress) =>
    commitAsync<AddressStepSaveProfileMutation>(environment, SaveProfileMutation, { input: { name: a.fullName || undefined, phone: a.phone || undefined, address: a } }).catch(() => undefined);
  const saveEdited = useEffectEvent((a: SelectionAddress) => void save(a));

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!loggedIn) return;
    const t = setTimeout(() => saveEdited(address), ADDRESS_SAVE_DELAY_MS);
    return () => clearTimeout(t);
  }, [address, loggedIn]);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!address.street.trim()) {
      setError("Please enter your street address.");
      return;
    }
    if (loggedIn) void save(address);
    onContinue();
  }

  return (
    <form onSubmit={submit} noValidate>
      <Heading as="h2" size="lg" mb="6">
        Address
      </Heading>
      <Stack gap="4">
        <AddressFields address={address} onChange={onChange} instructions={mode === "delivery"} />
        <FormError>{error}</FormError>
        <StepButtons backLabel="Back" onBack={onBack} continueLabel="Continue to Review" />
      </Stack>
    </form>
  );
}
