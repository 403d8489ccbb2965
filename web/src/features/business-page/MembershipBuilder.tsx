import { Badge, Box, Button, Flex, Heading, HStack, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { useMemo, useState, type ComponentProps } from "react";
import { graphql, useFragment } from "react-relay";
import { useNavigate } from "react-router";
import type { MembershipBuilderFragment_business$key } from "./__generated__/MembershipBuilderFragment_business.graphql.ts";
import type { MembershipBuilderFragment_membership$key } from "./__generated__/MembershipBuilderFragment_membership.graphql.ts";
import { defaultMode, enabledModes, modeExtraCents, sameIds, soldOutChoice, toggleAddon } from "./rules.ts";
import { readFulfillment } from "./pageShapes.ts";
import { initialPoint, missingPoint, pointQuestion, pointsForMode } from "./points.ts";
import { monthDay, periodMonthName, signupNowTitle } from "./nextMonth.ts";
import { formatCents, formatSurcharge } from "@shared/money.ts";
import { fromModeCode, MODE_LABELS, type FulfillmentModeName } from "@shared/fulfillment.ts";
import { SOLD_OUT_LABEL } from "@shared/capacity.ts";
import { chosenPoint, readSelection, saveSelection, type MembershipSelection } from "../../lib/selection.ts";
import { pageSurface, primaryButtonColors } from "../../lib/color.ts";
import { BusinessPrimary } from "../../ui/BusinessPrimary.tsx";
import { lazyDialog } from "../../ui/lazyDialog.tsx";
import { FormError } from "../../ui/FormError.tsx";

const ChangeConfirmDialog = lazyDialog(() => import("./ChangeConfirmDialog.tsx").then((m) => m.ChangeConfirmDialog));

const MembershipBuilderFragment = graphql`
  fragment MembershipBuilderFragment_business on Business {
    slug
    name
    checkoutClosedMessage
    signupStartsNextMonth
    signupFirstPeriod
    signupFirstChargeDate
    page {
      addonLimit
      addonSectionTitle
      billingDay
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

const MembershipFragment = graphql`
  fragment MembershipBuilderFragment_membership on Membership {
    id
    mode
    fulfillmentPoint
    plan {
      ref
    }
    addons {
      addon {
        ref
      }
    }
    pendingChange {
      mode
      fulfillmentPoint
      plan {
        ref
      }
      addons {
        ref
      }
    }
    soldOutForChange {
      planRef
      soldOut
      soldOutModes
    }
  }
`;

interface Props {
  business: MembershipBuilderFragment_business$key;
  /** The member's membership here (change mode compares with it when no stored selection matches). */
  membership: MembershipBuilderFragment_membership$key | null;
  changeMode: boolean;
  /** The page editor's preview of a draft: Checkout only says it is disabled. */
  preview?: boolean;
  /** Where Checkout goes (/b/{slug}/membership/checkout, or /membership/checkout on a tenant host). */
  checkoutPath: string;
  loggedIn: boolean;
}

interface Choice {
  planRef: string;
  addonRefs: string[];
  mode: FulfillmentModeName | null;
  /** The pickup point or delivery area ("" when none is chosen or the mode has none). */
  point: string;
}

/** Plan cards, add-ons, fulfillment choice and the monthly total, with Checkout (or Update in change mode). */
export function MembershipBuilder({ business, membership, changeMode, preview, checkoutPath, loggedIn }: Props) {
  const data = useFragment(MembershipBuilderFragment, business);
  const current = useFragment(MembershipFragment, membership);
  const navigate = useNavigate();
  const page = data.page;
  const plans = data.plans.edges.map((e) => e.node);
  const addons = data.addons.edges.map((e) => e.node);
  const fulfillment = readFulfillment(page?.fulfillment);
  const modes = enabledModes(fulfillment);
  const addonLimit = page?.addonLimit ?? 0;
  const theme = page?.theme;
  const surface = pageSurface(theme?.pageBg ?? "#ffffff");
  const dark = surface.light;

  // Change mode: the original is the stored selection of this business, else the member's current membership.
  const original = useMemo<Choice | null>(() => {
    if (!changeMode) return null;
    const stored = readSelection();
    if (stored && stored.businessSlug.toLowerCase() === data.slug) {
      return { planRef: stored.chosenItemId, addonRefs: stored.chosenAddonIds ?? [], mode: stored.mode, point: chosenPoint(stored) };
    }
    if (current) {
      const src = current.pendingChange ?? null;
      return src
        ? { planRef: src.plan.ref, addonRefs: src.addons.map((a) => a.ref), mode: fromModeCode(src.mode), point: src.fulfillmentPoint }
        : { planRef: current.plan.ref, addonRefs: current.addons.map((a) => a.addon.ref), mode: fromModeCode(current.mode), point: current.fulfillmentPoint };
    }
    return null;
  }, [changeMode, current, data.slug]);
  // Changing a box, the server's answer for this member (the places their membership holds need none again).
  const forMember = useMemo(
    () => new Map(changeMode && current ? current.soldOutForChange.map((s) => [s.planRef, s] as const) : []),
    [changeMode, current],
  );
  /** Whether a plan (mode null) or a plan in a mode is sold out here (rules.ts soldOutChoice). */
  const isSoldOut = (p: (typeof plans)[number], mode: FulfillmentModeName | null) => {
    const answer = forMember.get(p.ref) ?? p;
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
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  // The change as it stood when Update was pressed: the dialog keeps it while the membership it updates re-renders
  // this builder (a point saved at once would otherwise stop being "point only" under the dialog's feet).
  const [request, setRequest] = useState<Omit<ComponentProps<typeof ChangeConfirmDialog>, "open" | "onOpenChange" | "membershipId"> | null>(null);

  const plan = plans.find((p) => p.ref === choice.planRef) ?? plans[0];
  const variation = plan?.variations.find((v) => v.mode.toLowerCase() === choice.mode);
  const chosenAddons = addons.filter((a) => choice.addonRefs.includes(a.ref));
  const addonsCents = chosenAddons.reduce((sum, a) => sum + a.amountCents, 0);
  const planCents = variation?.amountCents ?? plan?.priceCents ?? 0;
  const totalCents = planCents + addonsCents;
  const soldOut = !!plan && isSoldOut(plan, choice.mode);
  const sameBox = !!original && original.planRef === choice.planRef && original.mode === choice.mode && sameIds(original.addonRefs, choice.addonRefs);
  const changed = !!original && (!sameBox || original.point !== choice.point);
  // Another point alone (same box as the membership holds now) takes effect at once on the server.
  const pointOnly = !!current && changed && sameBox && !current.pendingChange;

  const primaryButton = {
    ...primaryButtonColors(theme && { primary: theme.primary, primaryText: theme.primaryText, buttonBorder: theme.buttonBorder }),
    borderWidth: "2px",
    _hover: { filter: "brightness(0.92)" },
    _disabled: { opacity: 0.5, cursor: "not-allowed", filter: "none" },
  } as const;
  const selectionColor = theme?.selection ?? "#2563eb";
  const cardBg = surface.card;
  const mutedColor = surface.muted;

  function modeDetails(mode: FulfillmentModeName): string {
    if (mode === "pickup") return fulfillment.pickupPoints.join(" · ");
    if (mode === "shipping") return fulfillment.shippingText || "Nationwide Shipping";
    return fulfillment.deliveryAreas.join(" · ");
  }

  function checkout() {
    if (preview) {
      setNotice("Checkout is disabled in preview mode.");
      return;
    }
    if (!plan || !choice.mode) return;
    const selection: Omit<MembershipSelection, "ts"> = {
      businessSlug: data.slug,
      mode: choice.mode,
      fulfillmentMode: choice.mode,
      // Issue 20: the chosen point or area (spec fulfillmentDetails); shipping keeps its text.
      fulfillmentDetails: choice.mode === "shipping" ? modeDetails(choice.mode) : choice.point,
      itemIds: plans.map((p) => p.ref),
      chosenItemId: plan.ref,
      chosenItemName: plan.name,
      chosenItemAmountCents: planCents,
      chosenItemPrice: formatCents(planCents),
      chosenVariationId: variation?.id ?? `${plan.ref}_${choice.mode}`,
      chosenVariationName: variation?.name ?? MODE_LABELS[choice.mode],
      chosenAddonIds: chosenAddons.map((a) => a.ref),
      chosenAddons: chosenAddons.map((a) => ({ id: a.ref, name: a.name, price: formatCents(a.amountCents), amount: a.amountCents / 100, amountCents: a.amountCents })),
      chosenUpgrades: [],
      pickupAddress: choice.mode === "pickup" ? choice.point : "",
      price: formatCents(totalCents),
      taxEnabled: page?.tax.enabled ?? false,
      taxRate: page?.tax.ratePercent ?? 5.75,
      billingDay: page?.billingDay ?? 1,
      email: "",
      isGift: false,
      couponCode: "",
      isChange: false,
      address: null,
      account: null,
    };
    saveSelection(selection);
    void navigate(checkoutPath);
  }

  function openConfirm() {
    if (!plan || !choice.mode) return;
    setRequest({
      planId: plan.id,
      addonIds: chosenAddons.map((a) => a.id),
      mode: choice.mode,
      fulfillmentPoint: choice.point,
      pointOnly,
      summary: `${plan.name}, ${MODE_LABELS[choice.mode]}${choice.point ? ` (${choice.point})` : ""}${chosenAddons.length ? ` + ${chosenAddons.map((a) => a.name).join(", ")}` : ""}`,
    });
    setConfirmOpen(true);
  }

  // Spec §5/§8: past the cutoff day the server refuses new memberships; say so before anyone registers (the
  // editor's preview too: it shows the page as visitors see it today).
  const closedMessage = !changeMode ? data.checkoutClosedMessage : null;
  // Issue 31: past the cutoff at a page that takes them, a sign-up is for next month's box (the card is saved today).
  const nextMonth = !changeMode && !closedMessage && data.signupStartsNextMonth ? data.signupFirstPeriod : null;

  return (
    <Stack gap="10">
      {closedMessage && (
        <Box role="alert" data-testid="cutoff-notice" p="4" rounded="lg" bg="orange.50" borderWidth="1px" borderColor="orange.300" color="orange.900" fontWeight="medium">
          {closedMessage}
        </Box>
      )}
      {nextMonth && (
        <Box data-testid="next-month-notice" p="4" rounded="lg" bg="blue.50" borderWidth="1px" borderColor="blue.300" color="blue.900">
          <Text fontWeight="bold" fontSize="lg">
            {signupNowTitle(nextMonth)}
          </Text>
          <Text fontSize="sm" mt="1">
            {`Sign-ups for this month's box have closed. Nothing is charged today: your card is saved and first charged on ${monthDay(data.signupFirstChargeDate)}.`}
          </Text>
        </Box>
      )}
      <Box as="section" aria-labelledby="plans-heading">
        <Heading id="plans-heading" as="h2" size="xl" mb="4">
          {changeMode ? "Change your box" : "Choose your box"}
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

      <Box as="section" aria-labelledby="fulfillment-heading">
        <Heading id="fulfillment-heading" as="h2" size="xl" mb="4">
          How you get it
        </Heading>
        {modes.length === 0 ? (
          <Text color={mutedColor}>Select at least one</Text>
        ) : (
          <Stack as="fieldset" role="radiogroup" aria-label="Fulfillment" gap="3" direction={{ base: "column", md: "row" }}>
            {modes.map((m) => {
              const selected = choice.mode === m;
              const extra = plan ? modeExtraCents(plan.variations, m) : null;
              const full = !!plan && isSoldOut(plan, m);
              return (
                <Box as="label" key={m} flex="1" cursor="pointer" p="4" rounded="lg" bg={cardBg} borderWidth="2px" borderColor={selected ? selectionColor : dark ? "whiteAlpha.300" : "gray.200"} _focusWithin={{ outline: "3px solid", outlineColor: selectionColor, outlineOffset: "2px" }}>
                  <HStack align="flex-start" gap="3">
                    <input type="radio" name="fulfillment" value={m} checked={selected} onChange={() => chooseMode(m)} disabled={full} style={{ marginTop: 4, accentColor: selectionColor, width: 18, height: 18 }} aria-label={`${MODE_LABELS[m]}${extra !== null && extra > 0 ? ` ${formatSurcharge(extra)}` : ""}${full ? ` (${SOLD_OUT_LABEL})` : ""}`} />
                    <Stack gap="0.5">
                      <Text fontWeight="semibold">
                        {MODE_LABELS[m]}{" "}
                        {extra !== null && extra > 0 && (
                          <Text as="span" fontWeight="normal" color={mutedColor}>
                            {formatSurcharge(extra)}
                          </Text>
                        )}
                      </Text>
                      {modeDetails(m) && (
                        <Text fontSize="sm" color={mutedColor}>
                          {modeDetails(m)}
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
              const selected = choice.point === p;
              return (
                <Box as="label" key={p} cursor="pointer" p="3" rounded="lg" bg={cardBg} borderWidth="2px" borderColor={selected ? selectionColor : dark ? "whiteAlpha.300" : "gray.200"} _focusWithin={{ outline: "3px solid", outlineColor: selectionColor, outlineOffset: "2px" }}>
                  <HStack gap="3">
                    <input type="radio" name="fulfillment-point" value={p} checked={selected} required onChange={() => setChoice((c) => ({ ...c, point: p }))} style={{ accentColor: selectionColor, width: 18, height: 18 }} aria-label={p} />
                    <Text>{p}</Text>
                  </HStack>
                </Box>
              );
            })}
          </Stack>
        </Box>
      )}

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
        {changeMode ? (
          <Stack gap="1" align={{ base: "stretch", sm: "flex-end" }}>
            <Button size="lg" {...primaryButton} disabled={!changed || !current || soldOut || !!pointMissing || !choice.mode || !plan} onClick={openConfirm}>
              Update
            </Button>
            {!loggedIn ? (
              <Text fontSize="sm" color={mutedColor}>Log in to change your box.</Text>
            ) : !current ? (
              <Text fontSize="sm" color={mutedColor}>You have no membership here to change.</Text>
            ) : !changed ? (
              <Text fontSize="sm" color={mutedColor}>Change the package, add-ons or fulfillment to update.</Text>
            ) : pointMissing ? (
              <Text fontSize="sm" color={mutedColor}>{pointMissing}</Text>
            ) : null}
          </Stack>
        ) : (
          <Stack gap="1" align={{ base: "stretch", sm: "flex-end" }}>
            <Button size="lg" {...primaryButton} disabled={!plan || !choice.mode || !!closedMessage || soldOut || !!pointMissing} onClick={checkout}>
              Checkout
            </Button>
            {pointMissing && !closedMessage && (
              <Text fontSize="sm" color={mutedColor} data-testid="point-missing">
                {pointMissing}
              </Text>
            )}
            {closedMessage && (
              <Text fontSize="sm" color={mutedColor}>
                New memberships open again next month.
              </Text>
            )}
            {nextMonth && !pointMissing && (
              <Text fontSize="sm" color={mutedColor} data-testid="next-month-hint">
                {`Your first box is ${periodMonthName(nextMonth)}'s. Nothing is charged today.`}
              </Text>
            )}
          </Stack>
        )}
      </Flex>
      <FormError fontWeight="medium">{notice}</FormError>
      {changeMode && current && request && (
        // Its Confirm update is the page's primary button, in the business's colour.
        <BusinessPrimary theme={theme ?? null}>
          <ChangeConfirmDialog open={confirmOpen} onOpenChange={setConfirmOpen} membershipId={current.id} {...request} />
        </BusinessPrimary>
      )}
    </Stack>
  );
}
