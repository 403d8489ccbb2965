import { Dialog, Text } from "@chakra-ui/react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { RestartPaymentFragment_membership$key } from "./__generated__/RestartPaymentFragment_membership.graphql.ts";
import type { RestartPaymentFragment_paymentConfig$key } from "./__generated__/RestartPaymentFragment_paymentConfig.graphql.ts";
import type { RestartPaymentCompleteMutation } from "./__generated__/RestartPaymentCompleteMutation.graphql.ts";
import { CardPaymentForm, PaymentFlowError } from "../payments/CardPaymentForm.tsx";
import { commitAsync } from "../../lib/mutations.ts";
import { formatCents } from "@shared/money.ts";

const RestartPaymentFragment = graphql`
  fragment RestartPaymentFragment_membership on Membership {
    business {
      name
    }
  }
`;

/** The card form's provider. */
const PaymentConfigFragment = graphql`
  fragment RestartPaymentFragment_paymentConfig on PaymentConfig {
    ...CardPaymentFormFragment_paymentConfig
  }
`;

const CompleteMutation = graphql`
  mutation RestartPaymentCompleteMutation($paymentIntentId: String!) {
    completeCheckout(paymentIntentId: $paymentIntentId) {
      __typename
      ... on CompleteCheckoutSuccess {
        data {
          chargedCents
          nextBillingDate
          membership {
            # The card shows the membership active again.
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

export interface RestartCharge {
  clientSecret: string;
  paymentIntentId: string;
  /** Today's amount the member confirmed: the button names it. */
  amountCents: number;
}

/**
 * The restart dialog's card step, when the card must confirm today's payment (3-D Secure or a new card): the card
 * form, then the server completes the restart and the dialog says what was charged (`onPaid`).
 */
export function RestartPayment({ membership, paymentConfig, charge, onPaid }: {
  membership: RestartPaymentFragment_membership$key;
  paymentConfig: RestartPaymentFragment_paymentConfig$key;
  charge: RestartCharge;
  onPaid: (paid: { chargedCents: number; nextBillingDate: string | null }) => void;
}) {
  const m = useFragment(RestartPaymentFragment, membership);
  const config = useFragment(PaymentConfigFragment, paymentConfig);
  const environment = useRelayEnvironment();
  return (
    <>
      <Dialog.Header>
        <Dialog.Title>Confirm your card</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Text mb="4">Enter your card to pay for the current period and restart your {m.business.name} membership.</Text>
        <CardPaymentForm
          config={config}
          submitLabel={`Pay ${formatCents(charge.amountCents)} and restart`}
          prepare={async () => charge.clientSecret}
          onSucceeded={async () => {
            const res = await commitAsync<RestartPaymentCompleteMutation>(environment, CompleteMutation, { paymentIntentId: charge.paymentIntentId }).catch(() => {
              throw new PaymentFlowError("Failed to restart subscription");
            });
            const r = res.completeCheckout;
            if (!r.data) throw new PaymentFlowError(("message" in r && r.message) || "Failed to restart subscription");
            onPaid({ chargedCents: r.data.chargedCents, nextBillingDate: r.data.nextBillingDate });
          }}
        />
      </Dialog.Body>
    </>
  );
}
