import { Badge, Box, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { formatSurcharge } from "@shared/money.ts";
import { MODE_LABELS, type FulfillmentModeName } from "@shared/fulfillment.ts";
import { SOLD_OUT_LABEL } from "@shared/capacity.ts";

/** How the page paints a choice card: its card colour, the theme's selection colour, muted text, a dark page. */
interface OptionLook {
  cardBg: string;
  selectionColor: string;
  mutedColor: string;
  dark: boolean;
}

interface Props {
  /** The modes the page offers, in its order. */
  modes: FulfillmentModeName[];
  mode: FulfillmentModeName | null;
  point: string;
  /** The chosen mode's pickup points or delivery areas, and the question that asks for one (null: none to choose). */
  points: string[];
  pointLegend: string | null;
  /** A mode's surcharge over pickup for the chosen plan (null when it has no price in that mode). */
  extraCents: (mode: FulfillmentModeName) => number | null;
  /** Whether the chosen plan is sold out in a mode. */
  soldOut: (mode: FulfillmentModeName) => boolean;
  /** A mode's points or shipping text, under its name. */
  details: (mode: FulfillmentModeName) => string;
  onMode: (mode: FulfillmentModeName) => void;
  onPoint: (point: string) => void;
  look: OptionLook;
}

/** "How you get it": one card per fulfillment mode, then the pickup point or delivery area when there is a choice. */
export function FulfillmentChoice({ modes, mode, point, points, pointLegend, extraCents, soldOut, details, onMode, onPoint, look }: Props) {
  const { cardBg, selectionColor, mutedColor, dark } = look;
  return (
    <>
      <Box as="section" aria-labelledby="fulfillment-heading">
        <Heading id="fulfillment-heading" as="h2" size="xl" mb="4">
          How you get it
        </Heading>
        {modes.length === 0 ? (
          <Text color={mutedColor}>Select at least one</Text>
        ) : (
          <Stack as="fieldset" role="radiogroup" aria-label="Fulfillment" gap="3" direction={{ base: "column", md: "row" }}>
            {modes.map((m) => {
              const selected = mode === m;
              const extra = extraCents(m);
              const full = soldOut(m);
              return (
                <Box as="label" key={m} flex="1" cursor="pointer" p="4" rounded="lg" bg={cardBg} borderWidth="2px" borderColor={selected ? selectionColor : dark ? "whiteAlpha.300" : "gray.200"} _focusWithin={{ outline: "3px solid", outlineColor: selectionColor, outlineOffset: "2px" }}>
                  <HStack align="flex-start" gap="3">
                    <input type="radio" name="fulfillment" value={m} checked={selected} onChange={() => onMode(m)} disabled={full} style={{ marginTop: 4, accentColor: selectionColor, width: 18, height: 18 }} aria-label={`${MODE_LABELS[m]}${extra !== null && extra > 0 ? ` ${formatSurcharge(extra)}` : ""}${full ? ` (${SOLD_OUT_LABEL})` : ""}`} />
                    <Stack gap="0.5">
                      <Text fontWeight="semibold">
                        {MODE_LABELS[m]}{" "}
                        {extra !== null && extra > 0 && (
                          <Text as="span" fontWeight="normal" color={mutedColor}>
                            {formatSurcharge(extra)}
                          </Text>
                        )}
                      </Text>
                      {details(m) && (
                        <Text fontSize="sm" color={mutedColor}>
                          {details(m)}
                        </Text>
                      )}
                      {full && <Badge alignSelf="flex-start" colorPalette="red" data-testid="sold-out">{SOLD_OUT_LABEL}</Badge>}
                    </Stack>
                  </HStack>
                </Box>
              );
            })}
          </Stack>
        )}
      </Box>

      {pointLegend && (
        <Box as="section" aria-labelledby="point-heading">
          <Heading id="point-heading" as="h2" size="lg" mb="3">
            {pointLegend}
          </Heading>
          <Stack as="fieldset" role="radiogroup" aria-label={pointLegend} aria-required="true" gap="2" data-testid="point-choice">
            {points.map((p) => {
              const selected = point === p;
              return (
                <Box as="label" key={p} cursor="pointer" p="3" rounded="lg" bg={cardBg} borderWidth="2px" borderColor={selected ? selectionColor : dark ? "whiteAlpha.300" : "gray.200"} _focusWithin={{ outline: "3px solid", outlineColor: selectionColor, outlineOffset: "2px" }}>
                  <HStack gap="3">
                    <input type="radio" name="fulfillment-point" value={p} checked={selected} required onChange={() => onPoint(p)} style={{ accentColor: selectionColor, width: 18, height: 18 }} aria-label={p} />
                    <Text>{p}</Text>
                  </HStack>
                </Box>
              );
            })}
          </Stack>
        </Box>
      )}
    </>
  );
}
