import type { SelectionAddress } from "../../lib/selection.ts";

/**
 * The Profile's "Your name" (the account's name) and "Name on the address" (who the boxes are for) are
 * stored apart, as before. The name on the address starts as the member's name when it is empty.
 */
export function withAddressName(address: SelectionAddress, name: string): SelectionAddress {
  return address.fullName.trim() ? address : { ...address, fullName: name.trim() };
}

/**
 * The name on the address while "Your name" is edited: it follows while it is empty or still the member's name,
 * and keeps what the member wrote there otherwise.
 */
export function followName(addressName: string, previousName: string, nextName: string): string {
  return addressName.trim() === "" || addressName.trim() === previousName.trim() ? nextName : addressName;
}
