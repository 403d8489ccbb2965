import { graphql, useFragment } from "react-relay";
import type { MembershipBuilderFragment_business$key } from "./__generated__/MembershipBuilderFragment_business.graphql.ts";
import type { MembershipBuilderFragment_membership$key } from "./__generated__/MembershipBuilderFragment_membership.graphql.ts";
import { BoxChooser, type ChooserProps } from "./BoxChooser.tsx";
import { BuyBox } from "./BuyBox.tsx";
import { ChangeBox } from "./ChangeBox.tsx";

// The chooser's plans and add-ons are asked for here, once: a fragment spread twice in one query (by each flow) is
// priced twice by the server's cost limit (api/graphql/limits.ts), which the business page's query would exceed.
const MembershipBuilderFragment = graphql`
  fragment MembershipBuilderFragment_business on Business {
    ...BoxChooserFragment_business
    ...BuyBoxFragment_business
    ...ChangeBoxFragment_business
  }
`;

const MembershipFragment = graphql`
  fragment MembershipBuilderFragment_membership on Membership {
    ...ChangeBoxFragment_membership
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

/**
 * Plan cards, add-ons, fulfillment choice and the monthly total (BoxChooser), in one of two flows: buying a box
 * (BuyBox: Checkout) or, in change mode, changing the member's (ChangeBox: Update).
 */
export function MembershipBuilder({ business, membership, changeMode, preview, checkoutPath, loggedIn }: Props) {
  const data = useFragment(MembershipBuilderFragment, business);
  const current = useFragment(MembershipFragment, membership);
  const chooser = (props: ChooserProps) => <BoxChooser business={data} {...props} />;
  return changeMode ? (
    <ChangeBox business={data} membership={current ?? null} loggedIn={loggedIn} chooser={chooser} />
  ) : (
    <BuyBox business={data} preview={preview} checkoutPath={checkoutPath} chooser={chooser} />
  );
}
