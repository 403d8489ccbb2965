import { Box, Button, Stack, Text } from "@chakra-ui/react";
import { useState, type ReactNode } from "react";
import { graphql, useFragment } from "react-relay";
import { useNavigate } from "react-router";
import type { BuyBoxFragment_business$key } from "./__generated__/BuyBoxFragment_business.graphql.ts";
import type { ChooserProps, ChosenBox } from "./BoxChooser.tsx";
import { monthDay, periodMonthName, signupNowTitle } from "./nextMonth.ts";
import { formatCents } from "@shared/money.ts";
import { MODE_LABELS } from "@shared/fulfillment.ts";
import { saveSelection, type MembershipSelection } from "../../lib/selection.ts";
import { FormError } from "../../ui/FormError.tsx";

const BuyBoxFragment = graphql`
  fragment BuyBoxFragment_business on Business {
    slug
    name
    acceptingMembers
    checkoutClosedMessage
    signupStartsNextMonth
    signupFirstPeriod
    signupFirstChargeDate
    page {
      billingDay
      tax {
        enabled
        ratePercent
      }
    }
  }
`;

interface Props {
  business: BuyBoxFragment_business$key;
  /** The page editor's preview of a draft: Checkout only says it is disabled. */
  preview?: boolean;
  /** Where Checkout goes (/b/{slug}/membership/checkout, or /membership/checkout on a tenant host). */
  checkoutPath: string;
  /** The business's plan, add-on and fulfillment choice (BoxChooser), with this flow's action. */
  chooser: (props: ChooserProps) => ReactNode;
}

/** Buying a box: the page's choices and Checkout, which stores the selection for the checkout page. */
export function BuyBox({ business, preview, checkoutPath, chooser }: Props) {
  const data = useFragment(BuyBoxFragment, business);
  const navigate = useNavigate();
  const page = data.page;
  const [notice, setNotice] = useState<string | null>(null);

  function checkout({ choice, plan, variation, chosenAddons, planCents, totalCents, modeDetails, planRefs }: ChosenBox) {
    if (preview) {
      setNotice("Checkout is disabled in preview mode.");
      return;
    }
    if (!plan || !choice.mode) return;
    const selection: Omit<MembershipSelection, "ts"> = {
      businessSlug: data.slug,
      mode: choice.mode,
      fulfillmentMode: choice.mode,
      // The chosen pickup point or delivery area (the spec's fulfillmentDetails); shipping keeps its text.
      fulfillmentDetails: choice.mode === "shipping" ? modeDetails : choice.point,
      itemIds: planRefs,
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

  // Spec §5/§8: past the cutoff day the server refuses new memberships; say so before anyone registers (the
  // editor's preview too: it shows the page as visitors see it today). A business whose payouts cannot take a
  // first charge yet takes no sign-up at all (the server refuses them with payments_not_ready): that says so first.
  const notAccepting = !data.acceptingMembers;
  const closedMessage = notAccepting ? `${data.name} isn't taking new members yet.` : data.checkoutClosedMessage;
  // Past the cutoff at a page that takes them, a sign-up is for next month's box (the card is saved today).
  const nextMonth = !closedMessage && data.signupStartsNextMonth ? data.signupFirstPeriod : null;

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
      {chooser({
        heading: "Choose your box",
        original: null,
        action: (box) => (
          <>
            <Button size="lg" {...box.primaryButton} disabled={!box.plan || !box.choice.mode || !!closedMessage || box.soldOut || !!box.pointMissing} onClick={() => checkout(box)}>
              Checkout
            </Button>
            {box.pointMissing && !closedMessage && (
              <Text fontSize="sm" color={box.mutedColor} data-testid="point-missing">
                {box.pointMissing}
              </Text>
            )}
            {closedMessage && !notAccepting && (
              <Text fontSize="sm" color={box.mutedColor}>
                New memberships open again next month.
              </Text>
            )}
            {nextMonth && !box.pointMissing && (
              <Text fontSize="sm" color={box.mutedColor} data-testid="next-month-hint">
                {`Your first box is ${periodMonthName(nextMonth)}'s. Nothing is charged today.`}
              </Text>
            )}
          </>
        ),
      })}
      <FormError fontWeight="medium">{notice}</FormError>
    </Stack>
  );
}
