import { Button, Dialog, Portal, Stack, Text } from "@chakra-ui/react";
import { useId, useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import { useNavigate } from "react-router";
import type { CancelFlowDialogFragment_membership$key } from "./__generated__/CancelFlowDialogFragment_membership.graphql.ts";
import type { CancelFlowDialogRequestMutation } from "./__generated__/CancelFlowDialogRequestMutation.graphql.ts";
import type { CancelFlowDialogAcceptMutation } from "./__generated__/CancelFlowDialogAcceptMutation.graphql.ts";
import type { CancelFlowDialogConfirmMutation } from "./__generated__/CancelFlowDialogConfirmMutation.graphql.ts";
import { longDate, monthOnly } from "../../lib/dates.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { FormError } from "../../ui/FormError.tsx";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";
import { CancelReasonStep } from "./CancelReasonStep.tsx";
import type { CANCELLATION_REASONS } from "./cancellation.ts";
import { changeBoxPath } from "./portalLinks.ts";
import { RetentionOffers, retainedText, type OfferOption } from "./RetentionOffers.tsx";

const CancelFlowDialogFragment = graphql`
  fragment CancelFlowDialogFragment_membership on Membership {
    id
    business {
      name
      slug
    }
  }
`;

// Each step's payload spreads the card's fragment: the card shows what the server now holds (a skip, a pause, a
// discounted total, the end of the membership) as soon as it answers.
const RequestMutation = graphql`
  mutation CancelFlowDialogRequestMutation($input: RequestCancellationInput!) {
    requestCancellation(input: $input) {
      __typename
      ... on RequestCancellationSuccess {
        data {
          requestId
          afterPeriod
          endsOn
          offers {
            offer
            month
            resumeDate
            maxMonths
            percent
          }
          membership {
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const AcceptMutation = graphql`
  mutation CancelFlowDialogAcceptMutation($input: AcceptRetentionOfferInput!) {
    acceptRetentionOffer(input: $input) {
      __typename
      ... on AcceptRetentionOfferSuccess {
        data {
          offer
          membership {
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const ConfirmMutation = graphql`
  mutation CancelFlowDialogConfirmMutation($input: ConfirmCancellationInput!) {
    confirmCancellation(input: $input) {
      __typename
      ... on ConfirmCancellationSuccess {
        data {
          afterPeriod
          endsOn
          membership {
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

type Reason = (typeof CANCELLATION_REASONS)[number]["value"];
/** The server's answer to the request: what the member may take instead, and when a cancel would end the membership. */
type Request = { requestId: string; offers: readonly OfferOption[]; afterPeriod: string; endsOn: string };
type Step = { at: "reason" } | { at: "offers" | "confirm"; request: Request } | { at: "retained"; text: string } | { at: "ending"; afterPeriod: string; endsOn: string };

const TITLES: Record<Step["at"], string> = {
  reason: "Why are you leaving?",
  offers: "Before you go",
  confirm: "Cancel your membership?",
  retained: "Thanks for staying",
  ending: "Your membership will end",
};

/**
 * A member's own cancel, at a business that takes it from the membership page: why they are leaving, then the offers
 * the server answered (each with "Accept"; switching plan goes on to the change flow), or straight to confirming when
 * there are none, then the server's word. A refusal stays in the dialog; closing it hands it to the card (`onClose`).
 */
export function CancelFlowDialog({ membership, open, onClose }: { membership: CancelFlowDialogFragment_membership$key; open: boolean; onClose: (error: string | null) => void }) {
  const m = useFragment(CancelFlowDialogFragment, membership);
  const environment = useRelayEnvironment();
  const navigate = useNavigate();
  const primary = usePrimaryButton();
  const titleId = useId();
  const [step, setStep] = useState<Step>({ at: "reason" });
  const [reason, setReason] = useState<Reason | null>(null);
  const [note, setNote] = useState("");
  /** What is being sent: the request, an offer's acceptance, or the confirmation. */
  const [busy, setBusy] = useState<null | "request" | "confirm" | OfferOption["offer"]>(null);
  const [error, setError] = useState<string | null>(null);
  const asking = step.at === "reason" || step.at === "offers" || step.at === "confirm";

  function close() {
    onClose(error);
    setError(null);
    setStep({ at: "reason" });
    setReason(null);
    setNote("");
  }

  /** Runs one step's mutation; its refusal (or a failure) stays in the dialog. */
  async function send<T>(what: NonNullable<typeof busy>, run: () => Promise<{ data?: T | null; message?: string }>, fallback: string, then: (data: T) => void) {
    setBusy(what);
    setError(null);
    try {
      const r = await run();
      if (r.data) then(r.data);
      else setError(r.message || fallback);
    } catch (e) {
      setError((e as Error).message || fallback);
    } finally {
      setBusy(null);
    }
  }

  const request = () =>
    reason &&
    send(
      "request",
      async () => (await commitAsync<CancelFlowDialogRequestMutation>(environment, RequestMutation, { input: { subscriptionId: m.id, reason, note: note.trim() || null } })).requestCancellation,
      "Failed to start cancelling your membership",
      (d) => setStep({ at: d.offers.length ? "offers" : "confirm", request: { requestId: d.requestId, offers: d.offers, afterPeriod: d.afterPeriod, endsOn: d.endsOn } }),
    );

  const accept = (requestId: string, option: OfferOption, months: number | null) =>
    send(
      option.offer,
      async () => (await commitAsync<CancelFlowDialogAcceptMutation>(environment, AcceptMutation, { input: { requestId, offer: option.offer, months } })).acceptRetentionOffer,
      "Failed to take this offer",
      () => {
        if (option.offer === "SWITCH_PLAN") void navigate(changeBoxPath(m.business.slug));
        else setStep({ at: "retained", text: retainedText(option, months ?? 1) });
      },
    );

  const confirm = (requestId: string) =>
    send(
      "confirm",
      async () => (await commitAsync<CancelFlowDialogConfirmMutation>(environment, ConfirmMutation, { input: { requestId } })).confirmCancellation,
      "Failed to cancel your membership",
      (d) => setStep({ at: "ending", afterPeriod: d.afterPeriod, endsOn: d.endsOn }),
    );

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && !busy && close()} placement="center" role={open && asking ? "alertdialog" : "dialog"} ids={{ title: titleId }}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            {open && (
              <>
                <Dialog.Header>
                  <Dialog.Title>{TITLES[step.at]}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="4">
                    {step.at === "reason" && (
                      <>
                        <Text color="fg.muted">Tell {m.business.name} why you want to cancel your membership.</Text>
                        <CancelReasonStep labelledBy={titleId} reason={reason} note={note} onReason={setReason} onNote={setNote} />
                      </>
                    )}
                    {step.at === "offers" && (
                      <>
                        <Text>Instead of cancelling, would one of these help?</Text>
                        <RetentionOffers offers={step.request.offers} busy={busy === "request" || busy === "confirm" ? null : busy} onAccept={(o, months) => void accept(step.request.requestId, o, months)} />
                        <Text fontSize="sm" color="fg.muted" data-testid="cancel-ends">
                          If you cancel, your membership ends after your {monthOnly(step.request.afterPeriod)} box.
                        </Text>
                      </>
                    )}
                    {step.at === "confirm" && (
                      <Text data-testid="cancel-ends">
                        Your membership ends after your {monthOnly(step.request.afterPeriod)} box. It won't renew on {longDate(step.request.endsOn)}.
                      </Text>
                    )}
                    {step.at === "retained" && <Text data-testid="retained-message">{step.text}</Text>}
                    {step.at === "ending" && (
                      <Stack gap="2" data-testid="cancel-scheduled">
                        <Text fontWeight="semibold">Your membership ends after your {monthOnly(step.afterPeriod)} box.</Text>
                        <Text>
                          Your {monthOnly(step.afterPeriod)} box still comes, and nothing is charged after it. Changed your mind? Choose Keep my membership on your card before {longDate(step.endsOn)}.
                        </Text>
                      </Stack>
                    )}
                    <FormError>{error}</FormError>
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch" gap="3">
                  {step.at === "reason" && (
                    <>
                      <Button variant="outline" onClick={close} disabled={busy !== null}>
                        Never mind
                      </Button>
                      <Button {...primary} onClick={() => void request()} disabled={!reason} loading={busy === "request"}>
                        Continue
                      </Button>
                    </>
                  )}
                  {(step.at === "offers" || step.at === "confirm") && (
                    <>
                      <Button variant="outline" onClick={close} disabled={busy !== null}>
                        Keep my membership
                      </Button>
                      <Button variant={step.at === "offers" ? "outline" : "solid"} colorPalette="red" onClick={() => void confirm(step.request.requestId)} loading={busy === "confirm"} disabled={busy !== null && busy !== "confirm"}>
                        {step.at === "offers" ? "No thanks, cancel my membership" : "Cancel membership"}
                      </Button>
                    </>
                  )}
                  {(step.at === "retained" || step.at === "ending") && (
                    <Button {...primary} onClick={close}>
                      Done
                    </Button>
                  )}
                </Dialog.Footer>
              </>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
