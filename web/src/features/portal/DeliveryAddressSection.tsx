import { Box, Button, Flex, Heading, Stack, Text } from "@chakra-ui/react";
import { addressLines } from "@shared/address.ts";
import { fromModeCode } from "@shared/fulfillment.ts";
import { useId, useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { DeliveryAddressSectionFragment_membership$key } from "./__generated__/DeliveryAddressSectionFragment_membership.graphql.ts";
import type { DeliveryAddressSectionMutation } from "./__generated__/DeliveryAddressSectionMutation.graphql.ts";
import { commitAsync } from "../../lib/mutations.ts";
import type { SelectionAddress } from "../../lib/selection.ts";
import { DeliveryAddressDialog, type AddressSaveOutcome } from "./DeliveryAddressDialog.tsx";
import { appliesFromMessage, showsDeliveryAddress } from "./deliveryAddress.ts";

const DeliveryAddressSectionFragment = graphql`
  fragment DeliveryAddressSectionFragment_membership on Membership {
    id
    status
    mode
    fulfillmentPoint
    # The parts savedAddress.ts reads, selected here: a fragment spread costs two levels of the server's depth limit
    # (12), which the portal's query reaches through this card.
    deliveryAddress {
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
    business {
      name
    }
  }
`;

const ChangeAddressMutation = graphql`
  mutation DeliveryAddressSectionMutation($input: ChangeMembershipAddressInput!) {
    changeMembershipAddress(input: $input) {
      __typename
      ... on ChangeMembershipAddressSuccess {
        data {
          appliesFrom
          membership {
            ...DeliveryAddressSectionFragment_membership
          }
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
`;

/** The address as the dialog edits it (null: none on file). */
function editable(a: { readonly fullName: string; readonly phone: string; readonly street: string; readonly apt: string; readonly city: string; readonly state: string; readonly zip: string; readonly country: string; readonly instructions: string } | null | undefined): SelectionAddress | null {
  if (!a) return null;
  const { fullName, phone, street, apt, city, state, zip, country, instructions } = a;
  return { fullName, phone, street, apt, city, state, zip, country, ...(instructions ? { instructions } : {}) };
}

/**
 * A membership card's "Delivery address" (current shipping and delivery memberships): where the boxes go
 * (and for delivery the area), "Change address", and once changed the month from which the boxes go there.
 * `areas`: for delivery, the areas the business delivers to now, which the new address's area is chosen from (the
 * card reads the page's lists).
 */
export function DeliveryAddressSection({ membership, areas }: { membership: DeliveryAddressSectionFragment_membership$key; areas: readonly string[] }) {
  const m = useFragment(DeliveryAddressSectionFragment, membership);
  const environment = useRelayEnvironment();
  const headingId = useId();
  const [open, setOpen] = useState(false);
  // Each opening starts from the address on file: the dialog is mounted afresh (its key).
  const [opening, setOpening] = useState(0);
  const [appliesFrom, setAppliesFrom] = useState<string | null>(null);
  if (!showsDeliveryAddress(m.status, m.mode)) return null;

  const mode = fromModeCode(m.mode);
  const address = editable(m.deliveryAddress);
  const lines = addressLines(address);

  function openDialog() {
    setAppliesFrom(null);
    setOpening((n) => n + 1);
    setOpen(true);
  }

  async function save(next: SelectionAddress, area: string | null): Promise<AddressSaveOutcome> {
    const res = await commitAsync<DeliveryAddressSectionMutation>(environment, ChangeAddressMutation, { input: { subscriptionId: m.id, address: next, fulfillmentPoint: area } });
    const r = res.changeMembershipAddress;
    if (r.data) return { ok: true, appliesFrom: r.data.appliesFrom };
    return { ok: false, message: r.message ?? "", issues: r.issues ?? [] };
  }

  return (
    <Box as="section" aria-labelledby={headingId} mt="4" p="3" rounded="lg" bg="bg.subtle" borderWidth="1px" data-testid="delivery-address">
      <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
        <Stack gap="0.5" fontSize="sm" minW="0" flex="1 1 12rem">
          <Heading as="h4" size="sm" id={headingId}>
            Delivery address
          </Heading>
          {lines.length > 0 ? (
            <Box as="address" fontStyle="normal" data-testid="delivery-address-lines">
              {lines.map((line) => (
                <Text key={line} overflowWrap="anywhere">
                  {line}
                </Text>
              ))}
            </Box>
          ) : (
            <Text color="fg.muted">No address on file.</Text>
          )}
          {address?.instructions && (
            <Text color="fg.muted" whiteSpace="pre-line" overflowWrap="anywhere">
              Instructions: {address.instructions}
            </Text>
          )}
          {mode === "delivery" && m.fulfillmentPoint && <Text data-testid="membership-point">Delivery area: {m.fulfillmentPoint}</Text>}
        </Stack>
        <Button size="sm" variant="outline" onClick={openDialog} aria-describedby={headingId}>
          Change address
        </Button>
      </Flex>
      {appliesFrom && (
        <Text role="status" mt="2" fontSize="sm" color="green.700" fontWeight="medium">
          {appliesFromMessage(appliesFrom)}
        </Text>
      )}
      {opening > 0 && (
        <DeliveryAddressDialog
          key={opening}
          open={open}
          businessName={m.business.name}
          mode={mode}
          address={address}
          area={m.fulfillmentPoint}
          areas={mode === "delivery" ? areas : []}
          onClose={() => setOpen(false)}
          onSave={save}
          onSaved={(from) => {
            setAppliesFrom(from);
            setOpen(false);
            // Gone at once (the card says what happened): an exit animation racing the card's refresh could leave
            // the closed dialog's content mounted.
            setOpening(0);
          }}
        />
      )}
    </Box>
  );
}
