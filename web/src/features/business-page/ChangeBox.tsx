import { Button, Stack, Text } from "@chakra-ui/react";
import { useMemo, useState, type ComponentProps, type ReactNode } from "react";
import { graphql, useFragment } from "react-relay";
import type { ChangeBoxFragment_business$key } from "./__generated__/ChangeBoxFragment_business.graphql.ts";
import type { ChangeBoxFragment_membership$key } from "./__generated__/ChangeBoxFragment_membership.graphql.ts";
import type { Choice, ChooserProps, ChosenBox } from "./BoxChooser.tsx";
import { sameIds } from "./rules.ts";
import { fromModeCode, MODE_LABELS } from "@shared/fulfillment.ts";
import { chosenPoint, readSelection } from "../../lib/selection.ts";
import { BusinessPrimary } from "../../ui/BusinessPrimary.tsx";
import { lazyDialog } from "../../ui/lazyDialog.tsx";

const ChangeConfirmDialog = lazyDialog(() => import("./ChangeConfirmDialog.tsx").then((m) => m.ChangeConfirmDialog));

const ChangeBoxFragment = graphql`
  fragment ChangeBoxFragment_business on Business {
    slug
    page {
      theme {
        primary
        primaryText
        buttonBorder
      }
    }
  }
`;

const MembershipFragment = graphql`
  fragment ChangeBoxFragment_membership on Membership {
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

type ChangeRequest = Omit<ComponentProps<typeof ChangeConfirmDialog>, "open" | "onOpenChange" | "membershipId">;

interface Props {
  business: ChangeBoxFragment_business$key;
  /** The member's membership here (the change compares with it when no stored selection matches). */
  membership: ChangeBoxFragment_membership$key | null;
  loggedIn: boolean;
  /** The business's plan, add-on and fulfillment choice (BoxChooser), with this flow's action. */
  chooser: (props: ChooserProps) => ReactNode;
}

/** Changing a member's box: the page's choices from the box they hold, and Update, which confirms the change. */
export function ChangeBox({ business, membership, loggedIn, chooser }: Props) {
  const data = useFragment(ChangeBoxFragment, business);
  const current = useFragment(MembershipFragment, membership);
  const pageTheme = data.page?.theme;
  const theme = pageTheme ? { primary: pageTheme.primary, primaryText: pageTheme.primaryText, buttonBorder: pageTheme.buttonBorder } : null;

  // The original is the stored selection of this business, else the member's current membership.
  const original = useMemo<Choice | null>(() => {
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
  }, [current, data.slug]);
  // The server's answer for this member (the places their membership holds need none again).
  const soldOutFor = useMemo(() => new Map(current ? current.soldOutForChange.map(({ planRef, soldOut, soldOutModes }) => [planRef, { soldOut, soldOutModes }] as const) : []), [current]);

  const [confirmOpen, setConfirmOpen] = useState(false);
  // The change as it stood when Update was pressed: the dialog keeps it while the membership it updates re-renders
  // this page (a point saved at once would otherwise stop being "point only" under the dialog's feet).
  const [request, setRequest] = useState<ChangeRequest | null>(null);

  function openConfirm({ plan, choice, chosenAddons }: ChosenBox, pointOnly: boolean) {
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

  return (
    <Stack gap="10">
      {chooser({
        heading: "Change your box",
        original,
        soldOutFor,
        action: (box) => {
          const { choice, plan, soldOut, pointMissing, mutedColor } = box;
          const sameBox = !!original && original.planRef === choice.planRef && original.mode === choice.mode && sameIds(original.addonRefs, choice.addonRefs);
          const changed = !!original && (!sameBox || original.point !== choice.point);
          // Another point alone (same box as the membership holds now) takes effect at once on the server.
          const pointOnly = !!current && changed && sameBox && !current.pendingChange;
          return (
            <>
              <Button size="lg" {...box.primaryButton} disabled={!changed || !current || soldOut || !!pointMissing || !choice.mode || !plan} onClick={() => openConfirm(box, pointOnly)}>
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
            </>
          );
        },
      })}
      {current && request && (
        // Its Confirm update is the page's primary button, in the business's colour.
        <BusinessPrimary theme={theme}>
          <ChangeConfirmDialog open={confirmOpen} onOpenChange={setConfirmOpen} membershipId={current.id} {...request} />
        </BusinessPrimary>
      )}
    </Stack>
  );
}
