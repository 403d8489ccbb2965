import { Badge, Box, Flex, Heading, HStack, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { useState, type ReactNode } from "react";
import { graphql, useFragment } from "react-relay";
import type { BoxChooserFragment_business$data, BoxChooserFragment_business$key } from "./__generated__/BoxChooserFragment_business.graphql.ts";
import { FulfillmentChoice } from "./FulfillmentChoice.tsx";
import { defaultMode, enabledModes, modeExtraCents, soldOutChoice, toggleAddon } from "./rules.ts";
import { readFulfillment } from "./pageShapes.ts";
import { initialPoint, missingPoint, pointQuestion, pointsForMode } from "./points.ts";
import { formatCents } from "@shared/money.ts";
import type { FulfillmentModeName } from "@shared/fulfillment.ts";
import { SOLD_OUT_LABEL } from "@shared/capacity.ts";
import { pageSurface, primaryButtonColors } from "../../lib/color.ts";

const BoxChooserFragment = graphql`
  fragment BoxChooserFragment_business on Business {
    page {
      addonLimit
      addonSectionTitle
      fulfillment {
        ...pageShapes_fulfillment
      }
      tax {
        enabled
        ratePercent
      }
      theme {
        primary
        primaryText
        buttonBorder
        selection
        pageBg
      }
    }
    plans(first: 50) {
      edges {
        node {
          id
          ref
          name
          description
          priceCents
          soldOut
          soldOutModes
          variations {
            id
            mode
            name
            amountCents
          }
        }
      }
    }
    addons(first: 100) {
      edges {
        node {
          id
          ref
          name
          description
          amountCents
        }
      }
    }
  }
`;

/** A box as chosen on the page: the plan, its add-ons, the fulfillment mode and its point. */
export interface Choice {
  planRef: string;
  addonRefs: string[];
  mode: FulfillmentModeName | null;
  /** The pickup point or delivery area ("" when none is chosen or the mode has none). */
  point: string;
}

type Plan = BoxChooserFragment_business$data["plans"]["edges"][number]["node"];
type Addon = BoxChooserFragment_business$data["addons"]["edges"][number]["node"];

/** The box the member has chosen, priced, for the action beside the total (Checkout or Update). */
export interface ChosenBox {
  choice: Choice;
  plan: Plan | undefined;
  variation: Plan["variations"][number] | undefined;
  chosenAddons: Addon[];
  planCents: number;
  totalCents: number;
  /** The plan is sold out (in the chosen mode). */
  soldOut: boolean;
  /** What the member must still choose (a pickup point or delivery area), or null. */
  pointMissing: string | null;
  /** The chosen mode's points or shipping text, as its option shows them. */
  modeDetails: string;
  /** Every plan's ref, in the page's order. */
  planRefs: string[];
  /** The page's primary button (its theme's colours). */
  primaryButton: ReturnType<typeof primaryButtonStyle>;
  mutedColor: string;
}

/** A primary button of the page: the theme's colours (lib/color.ts), darkened on hover, faded while disabled. */
function primaryButtonStyle(theme: Parameters<typeof primaryButtonColors>[0]) {
  return {
    ...primaryButtonColors(theme),
    borderWidth: "2px",
    _hover: { filter: "brightness(0.92)" },
    _disabled: { opacity: 0.5, cursor: "not-allowed", filter: "none" },
  } as const;
}

interface Props {
  business: BoxChooserFragment_business$key;
  heading: string;
  /** The box to start from (a change starts from the member's); null starts from the first plan not sold out. */
  original: Choice | null;
  /** The server's sold-out answers for this member by plan ref, in place of the plan's own (a change of box). */
  soldOutFor?: ReadonlyMap<string, { soldOut: boolean; soldOutModes: readonly string[] }>;
  /** The action beside the monthly total, with its hints. */
  action: (box: ChosenBox) => ReactNode;
}

/** What a flow (BuyBox, ChangeBox) asks of the chooser, which MembershipBuilder renders for the business. */
export type ChooserProps = Omit<Props, "business">;

/**
 * What buying and changing a box share: plan cards, add-ons, the fulfillment mode and its point, and the monthly
 * total with the flow's action beside it.
 */
export function BoxChooser({ business, heading, original, soldOutFor, action }: Props) {
  const data = useFragment(BoxChooserFragment, business);
  const page = data.page;
  const plans = data.plans.edges.map((e) => e.node);
  const addons = data.addons.edges.map((e) => e.node);
  const fulfillment = readFulfillment(page?.fulfillment);
  const modes = enabledModes(fulfillment);
  const addonLimit = page?.addonLimit ?? 0;
  const theme = page?.theme;
  const surface = pageSurface(theme?.pageBg ?? "#ffffff");
  const dark = surface.light;

  /** Whether a plan (mode null) or a plan in a mode is sold out here (rules.ts soldOutChoice). */
  const isSoldOut = (p: Plan, mode: FulfillmentModeName | null) => {
    const answer = soldOutFor?.get(p.ref) ?? p;
    return soldOutChoice({ soldOut: answer.soldOut, soldOutModes: answer.soldOutModes, variations: p.variations }, mode);
  };

  const [choice, setChoice] = useState<Choice>(() => {
    const mode = original?.mode && modes.includes(original.mode) ? original.mode : defaultMode(fulfillment);
    return {
      planRef: original && plans.some((p) => p.ref === original.planRef) ? original.planRef : ((plans.find((p) => !isSoldOut(p, null)) ?? plans[0])?.ref ?? ""),
      addonRefs: original ? original.addonRefs.filter((r) => addons.some((a) => a.ref === r)) : [],
      mode,
      point: initialPoint(pointsForMode(fulfillment, mode), original?.mode === mode ? original.point : null),
    };
  });
  const points = pointsForMode(fulfillment, choice.mode);
  const pointLegend = pointQuestion(choice.mode, points);
  const pointMissing = missingPoint(choice.mode, points, choice.point);
  const chooseMode = (m: FulfillmentModeName) =>
    setChoice((c) => ({ ...c, mode: m, point: initialPoint(pointsForMode(fulfillment, m), original?.mode === m ? original.point : c.mode === m ? c.point : null) }));

  const plan = plans.find((p) => p.ref === choice.planRef) ?? plans[0];
  const variation = plan?.variations.find((v) => v.mode.toLowerCase() === choice.mode);
  const chosenAddons = addons.filter((a) => choice.addonRefs.includes(a.ref));
  const addonsCents = chosenAddons.reduce((sum, a) => sum + a.amountCents, 0);
  const planCents = variation?.amountCents ?? plan?.priceCents ?? 0;
  const totalCents = planCents + addonsCents;

  const primaryButton = primaryButtonStyle(theme && { primary: theme.primary, primaryText: theme.primaryText, buttonBorder: theme.buttonBorder });
  const selectionColor = theme?.selection ?? "#2563eb";
  const cardBg = surface.card;
  const mutedColor = surface.muted;
  const look = { cardBg, selectionColor, mutedColor, dark };

  function modeDetails(mode: FulfillmentModeName): string {
    if (mode === "pickup") return fulfillment.pickupPoints.join(" · ");
    if (mode === "shipping") return fulfillment.shippingText || "Nationwide Shipping";
    return fulfillment.deliveryAreas.join(" · ");
  }

  const chosen: ChosenBox = {
    choice,
    plan,
    variation,
    chosenAddons,
    planCents,
    totalCents,
    soldOut: !!plan && isSoldOut(plan, choice.mode),
    pointMissing,
    modeDetails: choice.mode ? modeDetails(choice.mode) : "",
    planRefs: plans.map((p) => p.ref),
    primaryButton,
    mutedColor,
  };

  return (
    <>
      <Box as="section" aria-labelledby="plans-heading">
        <Heading id="plans-heading" as="h2" size="xl" mb="4">
          {heading}
        </Heading>
        {plans.length === 0 ? (
          <Text color={mutedColor}>No packages are offered right now.</Text>
        ) : (
          <SimpleGrid as="fieldset" columns={{ base: 1, md: Math.min(plans.length, 3) }} gap="4" role="radiogroup" aria-label="Package">
            {plans.map((p) => {
              const selected = p.ref === plan?.ref;
              const full = isSoldOut(p, null);
              const price = p.variations.find((v) => v.mode.toLowerCase() === choice.mode)?.amountCents ?? p.priceCents ?? 0;
              return (
                <Box as="label" key={p.id} cursor="pointer" p="5" rounded="xl" bg={cardBg} borderWidth="2px" borderColor={selected ? selectionColor : dark ? "whiteAlpha.300" : "gray.200"} shadow={selected ? "md" : "xs"} transition="all 0.15s" _focusWithin={{ outline: "3px solid", outlineColor: selectionColor, outlineOffset: "2px" }} data-testid="plan-card" data-selected={selected || undefined}>
                  <HStack justify="space-between" align="flex-start" gap="3">
                    <HStack gap="3" align="flex-start">
                      <input type="radio" name="plan" value={p.ref} checked={selected} onChange={() => setChoice((c) => ({ ...c, planRef: p.ref }))} disabled={full} style={{ marginTop: 6, accentColor: selectionColor, width: 18, height: 18 }} aria-label={full ? `${p.name} (${SOLD_OUT_LABEL})` : p.name} />
                      <Stack gap="1">
                        <Text fontWeight="bold" fontSize="lg">
                          {p.name}
                        </Text>
                        {full && <Badge alignSelf="flex-start" colorPalette="red" data-testid="sold-out">{SOLD_OUT_LABEL}</Badge>}
                        {p.description && (
                          <Text fontSize="sm" color={mutedColor}>
                            {p.description}
                          </Text>
                        )}
                      </Stack>
                    </HStack>
                    <Text fontWeight="bold" fontSize="lg" whiteSpace="nowrap">
                      {formatCents(price)}
                      <Text as="span" fontSize="sm" fontWeight="normal" color={mutedColor}>
                        /mo
                      </Text>
                    </Text>
                  </HStack>
                </Box>
              );
            })}
          </SimpleGrid>
        )}
      </Box>

      {addons.length > 0 && (
        <Box as="section" aria-labelledby="addons-heading">
          <Flex justify="space-between" align="baseline" wrap="wrap" gap="2" mb="4">
            <Heading id="addons-heading" as="h2" size="xl">
              {page?.addonSectionTitle || "Available Add-ons"}
            </Heading>
            {addonLimit > 0 && (
              <Text fontSize="sm" color={mutedColor}>
                Choose up to {addonLimit}
              </Text>
            )}
          </Flex>
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="3">
            {addons.map((a) => {
              const on = choice.addonRefs.includes(a.ref);
              return (
                <Box as="label" key={a.id} cursor="pointer" p="4" rounded="lg" bg={cardBg} borderWidth="2px" borderColor={on ? selectionColor : dark ? "whiteAlpha.300" : "gray.200"} _focusWithin={{ outline: "3px solid", outlineColor: selectionColor, outlineOffset: "2px" }} data-testid="addon-card">
                  <HStack align="flex-start" gap="3">
                    <input type="checkbox" checked={on} onChange={() => setChoice((c) => ({ ...c, addonRefs: toggleAddon(c.addonRefs, a.ref, addonLimit) }))} style={{ marginTop: 4, accentColor: selectionColor, width: 18, height: 18 }} aria-label={`${a.name} (${formatCents(a.amountCents)})`} />
                    <Stack gap="0.5" flex="1">
                      <HStack justify="space-between" gap="2">
                        <Text fontWeight="semibold">{a.name}</Text>
                        <Text fontWeight="semibold" whiteSpace="nowrap">
                          +{formatCents(a.amountCents)}
                        </Text>
                      </HStack>
                      {a.description && (
                        <Text fontSize="sm" color={mutedColor}>
                          {a.description}
                        </Text>
                      )}
                    </Stack>
                  </HStack>
                </Box>
              );
            })}
          </SimpleGrid>
        </Box>
      )}

      <FulfillmentChoice
        modes={modes}
        mode={choice.mode}
        point={choice.point}
        points={points}
        pointLegend={pointLegend}
        extraCents={(m) => (plan ? modeExtraCents(plan.variations, m) : null)}
        soldOut={(m) => !!plan && isSoldOut(plan, m)}
        details={modeDetails}
        onMode={chooseMode}
        onPoint={(p) => setChoice((c) => ({ ...c, point: p }))}
        look={look}
      />

      <Flex as="section" aria-label="Monthly total" direction={{ base: "column", sm: "row" }} justify="space-between" align={{ base: "stretch", sm: "center" }} gap="4" p="5" rounded="xl" bg={cardBg} borderWidth="1px" borderColor={dark ? "whiteAlpha.300" : "gray.200"} shadow="sm" position={{ base: "sticky", md: "static" }} bottom="3" zIndex="docked">
        <Stack gap="0">
          <Text fontSize="sm" color={mutedColor}>
            Monthly total{page?.tax.enabled ? ` (plus ${page.tax.ratePercent.toFixed(2)}% tax)` : ""}
          </Text>
          <Text fontSize="2xl" fontWeight="bold" data-testid="monthly-total">
            {formatCents(totalCents)}
            <Text as="span" fontSize="md" fontWeight="normal" color={mutedColor}>
              {" "}
              / month
            </Text>
          </Text>
          {chosenAddons.length > 0 && (
            <HStack gap="1" wrap="wrap" mt="1">
              {chosenAddons.map((a) => (
                <Badge key={a.id} size="sm" variant="subtle">
                  {a.name}
                </Badge>
              ))}
            </HStack>
          )}
        </Stack>
        <Stack gap="1" align={{ base: "stretch", sm: "flex-end" }}>
          {action(chosen)}
        </Stack>
      </Flex>
    </>
  );
}
