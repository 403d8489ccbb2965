import { Box, Button, Field, Flex, Heading, NativeSelect, Stack, Text } from "@chakra-ui/react";
import { useId, useState } from "react";
import type { CancelFlowDialogRequestMutation$data } from "./__generated__/CancelFlowDialogRequestMutation.graphql.ts";
import { monthDayOrdinal, monthOnly, monthYear, shiftMonth } from "../../lib/dates.ts";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";
import { monthSpan } from "./monthSpan.ts";

/** One offer the server answered a cancel request with (requestCancellation's offers). */
export type OfferOption = NonNullable<CancelFlowDialogRequestMutation$data["requestCancellation"]["data"]>["offers"][number];
type Offer = OfferOption["offer"];

/** The months a pause of `length` months from `from` skips (as PauseDialog previews them; the server writes them). */
const pausedMonths = (from: string, length: number) => Array.from({ length }, (_, i) => shiftMonth(from, i));

/** What an offer card says: its title and the line under it, in the server's months and amounts. */
export function offerText(o: OfferOption): { title: string; detail: string } {
  switch (o.offer) {
    case "SKIP":
      return { title: `Skip ${monthOnly(o.month ?? "")} instead`, detail: `No box and no charge for ${monthYear(o.month ?? "")}.${o.resumeDate ? ` Payments resume ${monthDayOrdinal(o.resumeDate)}.` : ""}` };
    case "PAUSE": {
      const max = o.maxMonths ?? 1;
      return { title: max > 1 ? `Pause for 1–${max} months` : "Pause for 1 month", detail: "No boxes and no charges while you're away; your membership picks up again after." };
    }
    case "SWITCH_PLAN":
      return { title: "Switch to a smaller box", detail: "Choose a box that costs less; the change starts with your next charge." };
    case "DISCOUNT":
      return { title: `${o.percent ?? 0} % off your next box`, detail: `${o.percent ?? 0} % off your ${monthYear(o.month ?? "")} box, once. After that, your usual price.` };
    default:
      return { title: "Another offer", detail: "" };
  }
}

/** What the dialog says once an offer is taken (SWITCH_PLAN goes on to the change flow instead). */
export function retainedText(o: OfferOption, months: number): string {
  switch (o.offer) {
    case "SKIP":
      return `Your ${monthYear(o.month ?? "")} box is skipped and you won't be charged for it.${o.resumeDate ? ` Payments resume ${monthDayOrdinal(o.resumeDate)}.` : ""}`;
    case "PAUSE":
      return `Your membership is paused: no boxes and no charges for ${monthSpan(pausedMonths(o.month ?? "", months))}.`;
    case "DISCOUNT":
      return `You'll get ${o.percent ?? 0} % off your ${monthOnly(o.month ?? "")} box. Thanks for staying with us!`;
    default:
      return "Thanks for staying with us!";
  }
}

/** One offer: what it is, the months of a pause, and "Accept". */
function OfferCard({ option, busy, disabled, onAccept }: { option: OfferOption; busy: boolean; disabled: boolean; onAccept: (months: number | null) => void }) {
  const primary = usePrimaryButton();
  const titleId = useId();
  const [months, setMonths] = useState(1);
  const { title, detail } = offerText(option);
  const pause = option.offer === "PAUSE";
  const choices = Array.from({ length: option.maxMonths ?? 1 }, (_, i) => i + 1);
  return (
    <Box role="group" aria-labelledby={titleId} borderWidth="1px" rounded="lg" p="4" bg="bg" data-testid="retention-offer">
      <Flex gap="3" align={{ base: "stretch", sm: "center" }} direction={{ base: "column", sm: "row" }}>
        <Stack gap="1" flex="1">
          <Heading as="h3" size="sm" fontFamily="body" id={titleId}>
            {title}
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            {detail}
          </Text>
          {pause && choices.length > 1 && (
            <Field.Root mt="1" maxW="40">
              <Field.Label fontSize="sm">How many months?</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field value={months} onChange={(e) => setMonths(Number(e.target.value))}>
                  {choices.map((n) => (
                    <option key={n} value={n}>
                      {n} month{n === 1 ? "" : "s"}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          )}
          {pause && option.month && (
            <Text fontSize="sm" data-testid="pause-offer-preview">
              Skips {monthSpan(pausedMonths(option.month, months))}.
            </Text>
          )}
        </Stack>
        <Button size="sm" minW="24" alignSelf={{ base: "flex-start", sm: "center" }} {...primary} loading={busy} disabled={disabled} onClick={() => onAccept(pause ? months : null)}>
          Accept
        </Button>
      </Flex>
    </Box>
  );
}

/** The offers step's list: each offer as a card with its own "Accept"; `busy` is the offer being accepted. */
export function RetentionOffers({ offers, busy, onAccept }: { offers: readonly OfferOption[]; busy: Offer | null; onAccept: (option: OfferOption, months: number | null) => void }) {
  return (
    <Stack gap="3">
      {offers.map((o) => (
        <OfferCard key={o.offer} option={o} busy={busy === o.offer} disabled={busy !== null && busy !== o.offer} onAccept={(months) => onAccept(o, months)} />
      ))}
    </Stack>
  );
}
