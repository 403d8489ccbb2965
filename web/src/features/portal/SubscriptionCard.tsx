import { Badge, Box, Button, Flex, Heading, HStack, Link, Stack, Text } from "@chakra-ui/react";
import { useEffect, useRef, useState } from "react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink, useLocation } from "react-router";
import type { SubscriptionCardFragment_membership$key } from "./__generated__/SubscriptionCardFragment_membership.graphql.ts";
import type { SubscriptionCardFragment_paymentConfig$key } from "./__generated__/SubscriptionCardFragment_paymentConfig.graphql.ts";
import { CARD_UPDATE_ANCHOR } from "./CardUpdateSection.tsx";
import { longDate, monthOnly } from "../../lib/dates.ts";
import { ChangeScheduledLine } from "./ChangeScheduledLine.tsx";
import { DeliveryAddressSection } from "./DeliveryAddressSection.tsx";
import { showsDeliveryAddress } from "./deliveryAddress.ts";
import { RestartDialog } from "./RestartDialog.tsx";
import { SkipMonthDialog } from "./SkipMonthDialog.tsx";
import { PauseDialog } from "./PauseDialog.tsx";
import { ResumeDialog } from "./ResumeDialog.tsx";
import { CancelFlowDialog } from "./CancelFlowDialog.tsx";
import { KeepMembershipButton } from "./KeepMembershipButton.tsx";
import { selfService } from "./cancellation.ts";
import { SkippedMonths } from "./SkippedMonths.tsx";
import { changeBoxPath, type PortalAction } from "./portalLinks.ts";
import { formatCents } from "@shared/money.ts";
import { fromModeCode, MODE_LABELS } from "@shared/fulfillment.ts";
import { pointsForMode, POINT_LABEL } from "../business-page/points.ts";
import { readFulfillment } from "../business-page/pageShapes.ts";
import { BusinessPrimary, primaryButtonProps } from "../../ui/BusinessPrimary.tsx";
import { SupportPhone } from "./SupportPhone.tsx";
import { FormResult } from "../../ui/FormError.tsx";

const SubscriptionCardFragment = graphql`
  fragment SubscriptionCardFragment_membership on Membership {
    status
    planName
    mode
    fulfillmentPoint
    isGift
    giftMessage
    totalCents
    # A coupon's terms beside the price: "20 % off · 1 month left" tells the member the price is not for good.
    couponTerms
    nextBoxDate
    startedAt
    canceledAt
    business {
      name
      slug
      page {
        # The points the page lists now: the address section's delivery areas, a restart's choice of another point.
        fulfillment {
          ...pageShapes_fulfillment
        }
        # The card is the business's surface (its primary colour) and names its own support line.
        supportPhone
        # 0: the business offers no pause (no Pause button).
        pauseMaxMonths
        # SELF_SERVICE: "Cancel membership" on an active membership's card.
        cancellationPolicy
        theme {
          primary
          primaryText
          buttonBorder
        }
      }
    }
    addons {
      name
      amountCents
    }
    skipWindow {
      open
      opensOn
      closesOn
    }
    skipTarget {
      allowed
    }
    # Paused: the next box's month is skipped ("Paused until …", "Resume now").
    pausedThrough
    # Ending at the member's request: "Ends after your {Month} box", "Keep my membership".
    cancelAfterPeriod
    changeWindow {
      open
      opensOn
      closesOn
    }
    ...ChangeScheduledLineFragment_membership
    ...DeliveryAddressSectionFragment_membership
    ...SkipMonthDialogFragment_membership
    ...PauseDialogFragment_membership
    ...ResumeDialogFragment_membership
    ...SkippedMonthsFragment_membership
    ...RestartDialogFragment_membership
    ...CancelFlowDialogFragment_membership
    ...KeepMembershipButtonFragment_membership
  }
`;

/** The card form's provider, for a restart that charges now. */
const PaymentConfigFragment = graphql`
  fragment SubscriptionCardFragment_paymentConfig on PaymentConfig {
    ...RestartDialogFragment_paymentConfig
  }
`;

const STATUS_LABEL: Record<string, { label: string; palette: string }> = {
  ACTIVE: { label: "Active", palette: "green" },
  PAST_DUE: { label: "Past due", palette: "orange" },
  CANCELED: { label: "Canceled", palette: "gray" },
  INCOMPLETE: { label: "Incomplete", palette: "gray" },
};

type CardDialog = "skip" | "pause" | "resume" | "restart" | "cancel";

/**
 * One membership: details, skip, pause, resume and unskip (inside the skip window), change box link, the member's own
 * cancel where the business takes it from the membership page (and "Keep my membership" while it ends), restart of a
 * canceled one. `linked`: what a portal link (an email's Skip or Change link) asks of this membership: "skip" opens
 * its Skip dialog when a skip is allowed; either brings the card into view (the portal itself follows "change"). Each
 * request (`seq`) is taken once.
 */
export function SubscriptionCard({ membership, paymentConfig, onChanged, onOpenProfile, linked = null }: {
  membership: SubscriptionCardFragment_membership$key;
  paymentConfig: SubscriptionCardFragment_paymentConfig$key;
  onChanged: () => void;
  onOpenProfile: () => void;
  linked?: { open: PortalAction; seq: number } | null;
}) {
  const m = useFragment(SubscriptionCardFragment, membership);
  const config = useFragment(PaymentConfigFragment, paymentConfig);
  const location = useLocation();
  const [dialog, setDialog] = useState<null | CardDialog>(null);
  // The refusal a dialog was closed on, or what came of an unskip, shown on the card until the next action.
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const offered = pointsForMode(readFulfillment(m.business.page?.fulfillment), fromModeCode(m.mode));
  const status = STATUS_LABEL[m.status] ?? { label: m.status, palette: "gray" };
  const pageTheme = m.business.page?.theme;
  const theme = pageTheme ? { primary: pageTheme.primary, primaryText: pageTheme.primaryText, buttonBorder: pageTheme.buttonBorder } : null;
  const primary = primaryButtonProps(theme);
  const current = m.status === "ACTIVE" || m.status === "PAST_DUE";
  // A current shipping or delivery membership shows where its boxes go (with the delivery area) below.
  const withAddress = showsDeliveryAddress(m.status, m.mode);

  const pauseOffered = (m.business.page?.pauseMaxMonths ?? 0) > 0;
  const cancelFromCard = selfService(m.business.page?.cancellationPolicy);
  // Ending at the member's request after this month's box: the card's one action is keeping it, and a box after
  // the last one is not coming.
  const endsAfter = current ? (m.cancelAfterPeriod ?? null) : null;
  const nextBoxComing = !endsAfter || m.nextBoxDate.slice(0, 7) <= endsAfter;

  function openDialog(which: CardDialog) {
    setNotice(null);
    setDialog(which);
  }

  function closeDialog(refusal: string | null) {
    setNotice(refusal ? { ok: false, text: refusal } : null);
    setDialog(null);
  }

  // A link's request, taken once: the Skip dialog opens only when the card would let the member open it.
  const [takenLink, setTakenLink] = useState<number | null>(null);
  if (linked && linked.seq !== takenLink) {
    setTakenLink(linked.seq);
    if (linked.open === "skip" && current && m.skipTarget.allowed && dialog === null) openDialog("skip");
  }
  const linkedSeq = linked?.seq ?? null;
  useEffect(() => {
    if (linkedSeq !== null) cardRef.current?.scrollIntoView?.({ block: "center" });
  }, [linkedSeq]);

  return (
    <BusinessPrimary theme={theme}>
      <Box ref={cardRef} p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px" shadow="xs" data-testid="subscription-card">
        <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Stack gap="1">
            <Heading as="h3" size="lg">
              {m.business.name}
            </Heading>
            <Text color="fg.muted">
              {m.planName} · {MODE_LABELS[fromModeCode(m.mode)]} · {formatCents(m.totalCents)} / month
              {m.couponTerms && ` (${m.couponTerms})`}
            </Text>
          </Stack>
          <Badge colorPalette={status.palette} size="lg" rounded="full">
            {status.label}
          </Badge>
        </Flex>
        {m.addons.length > 0 && (
          <Text fontSize="sm" mt="2">
            Add-ons: {m.addons.map((a) => `${a.name} (${formatCents(a.amountCents)})`).join(", ")}
          </Text>
        )}
        <Stack gap="1" mt="3" fontSize="sm">
          {m.fulfillmentPoint && !withAddress && (
            <Text data-testid="membership-point">
              {POINT_LABEL[fromModeCode(m.mode)]}: {m.fulfillmentPoint}
            </Text>
          )}
          {m.isGift && m.giftMessage && (
            <Text whiteSpace="pre-line" data-testid="membership-gift-message">
              Gift message: {m.giftMessage}
            </Text>
          )}
          {current && nextBoxComing && <Text>Next box: {longDate(m.nextBoxDate)}</Text>}
          {endsAfter && (
            <Text fontWeight="semibold" color="red.700" data-testid="ends-after">
              Ends after your {monthOnly(endsAfter)} box
            </Text>
          )}
          <Text color="fg.muted">Member since {longDate(m.startedAt)}</Text>
          {m.canceledAt && <Text color="fg.muted">Canceled on {longDate(m.canceledAt)}</Text>}
          {current && <SkippedMonths membership={m} onOutcome={setNotice} />}
          <ChangeScheduledLine membership={m} />
        </Stack>
        <DeliveryAddressSection membership={m} areas={offered} />
        {m.status === "PAST_DUE" && (
          <Box role="alert" mt="3" p="3" rounded="md" bg="orange.50" borderWidth="1px" borderColor="orange.200" color="orange.900" fontSize="sm">
            Your last payment did not go through.{" "}
            <Link asChild color="orange.900" textDecoration="underline" fontWeight="semibold">
              {/* Opens Profile with the card update form started (the section reads the anchor). */}
              <RouterLink to={{ search: location.search, hash: CARD_UPDATE_ANCHOR }} onClick={onOpenProfile}>
                Update your card
              </RouterLink>
            </Link>{" "}
            to keep your membership.
          </Box>
        )}
        {!dialog && <FormResult result={notice} mt="3" />}
        <HStack gap="2" mt="4" wrap="wrap">
          {endsAfter && <KeepMembershipButton membership={m} onOutcome={setNotice} />}
          {current && !endsAfter && (
            <>
              <Button size="sm" variant="outline" disabled={!m.skipTarget.allowed} onClick={() => openDialog("skip")}>
                Skip a month
              </Button>
              {/* Paused, the pause's own action is ending it; a pause starts where a skip would (the same rule). */}
              {m.pausedThrough ? (
                <Button size="sm" variant="outline" disabled={!m.skipWindow.open} onClick={() => openDialog("resume")}>
                  Resume now
                </Button>
              ) : (
                pauseOffered && (
                  <Button size="sm" variant="outline" disabled={!m.skipTarget.allowed} onClick={() => openDialog("pause")}>
                    Pause
                  </Button>
                )
              )}
              {m.changeWindow.open ? (
                <Button asChild size="sm" variant="outline">
                  <RouterLink to={changeBoxPath(m.business.slug)}>Change box</RouterLink>
                </Button>
              ) : (
                <Button size="sm" variant="outline" disabled>
                  Change box
                </Button>
              )}
              {/* Quiet, apart from the actions that keep the boxes coming; the server takes an active membership only. */}
              {cancelFromCard && m.status === "ACTIVE" && (
                <Button size="sm" variant="ghost" color="fg.muted" ms={{ sm: "auto" }} onClick={() => openDialog("cancel")}>
                  Cancel membership
                </Button>
              )}
            </>
          )}
          {m.status === "CANCELED" && (
            <Button size="sm" {...primary} onClick={() => openDialog("restart")}>
              Restart subscription
            </Button>
          )}
        </HStack>
        {current && (!m.skipWindow.open || !m.changeWindow.open) && (
          <Text fontSize="xs" color="fg.muted" mt="2">
            {!m.skipWindow.open && `Skipping opens ${longDate(m.skipWindow.opensOn)}. `}
            {!m.changeWindow.open && `Changes open ${longDate(m.changeWindow.opensOn)}.`}
          </Text>
        )}
        {/* This membership's own windows and its business's line (the portal's footer names them for one business only). */}
        <Text fontSize="xs" color="fg.muted" mt="2" data-testid="window-note">
          {current ? `Skip window closes ${longDate(m.skipWindow.closesOn)}; change window closes ${longDate(m.changeWindow.closesOn)}. After that, call ${m.business.name} at ` : `Questions? Call ${m.business.name} at `}
          <SupportPhone phone={m.business.page?.supportPhone} />
          {current ? " to make changes." : "."}
        </Text>

        <SkipMonthDialog membership={m} open={dialog === "skip"} onClose={closeDialog} />
        {pauseOffered && <PauseDialog membership={m} open={dialog === "pause"} onClose={closeDialog} />}
        <ResumeDialog membership={m} open={dialog === "resume"} onClose={closeDialog} />
        {cancelFromCard && <CancelFlowDialog membership={m} open={dialog === "cancel"} onClose={closeDialog} />}
        <RestartDialog membership={m} paymentConfig={config} offered={offered} open={dialog === "restart"} onClose={closeDialog} onRestarted={onChanged} />
      </Box>
    </BusinessPrimary>
  );
}

