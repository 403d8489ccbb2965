import { Button, Dialog, HStack, Portal, Stack, Text } from "@chakra-ui/react";
import type { FulfillmentModeName } from "@shared/fulfillment.ts";
import { useState } from "react";
import type { SelectionAddress } from "../../lib/selection.ts";
import { AddressFields, EMPTY_ADDRESS, type AddressFieldErrors } from "../../ui/AddressFields.tsx";
import { FormError } from "../../ui/FormError.tsx";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";
import { initialPoint, missingPoint, pointQuestion } from "../business-page/points.ts";
import { issuesByField } from "./deliveryAddress.ts";

/** What saving the dialog came to: the first month at the new address, or the server's refusal (nothing changed). */
export type AddressSaveOutcome = { ok: true; appliesFrom: string } | { ok: false; message: string; issues?: readonly { path: string; message: string }[] };

const FAILED = "Failed to change the address";

/**
 * The card's "Change address" dialog: the whole address, prefilled with the current one, and for delivery
 * the area, chosen from the business's current list (the current area preselected while still offered). A refusal
 * shows the server's words and keeps everything typed. Mounted afresh for each opening (the caller's `key`).
 */
export function DeliveryAddressDialog({
  open,
  businessName,
  mode,
  address,
  area,
  areas,
  onClose,
  onSave,
  onSaved,
}: {
  open: boolean;
  businessName: string;
  mode: FulfillmentModeName;
  /** The address the boxes go to now (null: none on file). */
  address: SelectionAddress | null;
  /** The membership's delivery area now. */
  area: string;
  /** The areas the business delivers to now (delivery only). */
  areas: readonly string[];
  onClose: () => void;
  onSave: (address: SelectionAddress, area: string | null) => Promise<AddressSaveOutcome>;
  onSaved: (appliesFrom: string) => void;
}) {
  const primary = usePrimaryButton();
  const [form, setForm] = useState<SelectionAddress>(() => ({ ...EMPTY_ADDRESS, ...address }));
  const delivery = mode === "delivery";
  const [chosen, setChosen] = useState(() => (delivery ? initialPoint(areas, area) : ""));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<AddressFieldErrors>({});
  const [areaError, setAreaError] = useState<string | null>(null);
  const question = delivery ? pointQuestion("delivery", areas) : null;
  const areaGone = delivery && !!area && areas.length > 0 && !areas.includes(area);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy) return;
    const missing = delivery ? missingPoint("delivery", areas, chosen) : null;
    setAreaError(missing);
    setError(missing);
    if (missing) return;
    setBusy(true);
    setFieldErrors({});
    try {
      const outcome = await onSave(form, delivery && areas.length > 0 ? chosen : null);
      if (outcome.ok) {
        onSaved(outcome.appliesFrom);
        return;
      }
      const byField = issuesByField(outcome.issues ?? []);
      setError(outcome.message || FAILED);
      setFieldErrors(byField.fields);
      setAreaError(byField.area);
    } catch (err) {
      setError((err as Error).message || FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && !busy && onClose()} placement="center" scrollBehavior="inside" lazyMount unmountOnExit size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content data-testid="delivery-address-dialog">
            <form onSubmit={(e) => void submit(e)} noValidate style={{ display: "contents" }}>
              <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1">
                <Dialog.Title>Change delivery address</Dialog.Title>
                <Dialog.Description color="fg.muted" fontSize="sm">
                  Where your {businessName} boxes go. A box already being packed goes to the address it was packed for.
                </Dialog.Description>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="5">
                  <AddressFields address={form} onChange={(patch) => setForm((cur) => ({ ...cur, ...patch }))} instructions={delivery} narrow errors={fieldErrors} nameLabel="Name on the address" />
                  {delivery && question && (
                    <Stack as="fieldset" role="radiogroup" aria-label={question} aria-required="true" aria-invalid={!!areaError || undefined} gap="2" w="full" data-testid="address-area">
                      <Text as="legend" fontWeight="medium" mb="1">
                        {question}{" "}
                        <Text as="span" color="fg.error" aria-hidden="true">
                          *
                        </Text>
                      </Text>
                      {areaGone && (
                        <Text fontSize="sm" color="fg.muted">
                          {area} is no longer delivered to: choose another area.
                        </Text>
                      )}
                      {areas.map((p) => (
                        <HStack as="label" key={p} gap="2" cursor="pointer" px="3" py="2" rounded="md" borderWidth="1px" borderColor={chosen === p ? "orange.500" : "border"}>
                          <input
                            type="radio"
                            name="delivery-area"
                            value={p}
                            checked={chosen === p}
                            onChange={() => {
                              setChosen(p);
                              setAreaError(null);
                            }}
                            aria-label={p}
                            style={{ width: 18, height: 18 }}
                          />
                          <Text>{p}</Text>
                        </HStack>
                      ))}
                    </Stack>
                  )}
                  {delivery && !question && areas.length === 1 && (
                    <Text fontSize="sm" data-testid="address-area">
                      Delivery area: {areas[0]}
                    </Text>
                  )}
                  <FormError>{error}</FormError>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch" gap="3">
                <Button variant="outline" onClick={onClose} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" {...primary} loading={busy} loadingText="Saving…">
                  Save address
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
