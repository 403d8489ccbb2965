import { graphql, readInlineData } from "react-relay";
import type { SelectionAddress } from "../../lib/selection.ts";
import type { savedAddress_address$key } from "./__generated__/savedAddress_address.graphql.ts";

/**
 * A member's saved address, one selection for every place that shows or changes it: the profile form, the
 * checkout's prefill and the mutations that save it (so the store updates each of them).
 */
const SavedAddressFragment = graphql`
  fragment savedAddress_address on Address @inline {
    fullName
    phone
    street
    apt
    city
    state
    zip
    country
    instructions
  }
`;

export function readSavedAddress(key: savedAddress_address$key): SelectionAddress {
  const { fullName, phone, street, apt, city, state, zip, country, instructions } = readInlineData(SavedAddressFragment, key);
  return { fullName, phone, street, apt, city, state, zip, country, ...(instructions ? { instructions } : {}) };
}
