import { graphql, readInlineData } from "react-relay";
import type { pageShapes_fulfillment$key } from "./__generated__/pageShapes_fulfillment.graphql.ts";
import type { pageShapes_social$key } from "./__generated__/pageShapes_social.graphql.ts";

/** A page's fulfillment settings, as the business page, its builder and the page editor read them. */
export interface Fulfillment {
  pickup: boolean;
  shipping: boolean;
  delivery: boolean;
  /** Where members collect, in the owner's order (the first is the §3 pickupAddress). */
  pickupPoints: string[];
  shippingText: string;
  /** Areas delivered to, in the owner's order (the first is the §3 deliveryArea). */
  deliveryAreas: string[];
}

/** A page's social links (http(s) addresses or empty), as the footer shows and the editor edits them. */
export interface SocialLinks {
  facebook: string;
  instagram: string;
  twitter: string;
  youtube: string;
  tiktok: string;
}

const FulfillmentFragment = graphql`
  fragment pageShapes_fulfillment on PageFulfillment @inline {
    pickup
    shipping
    delivery
    pickupPoints
    shippingText
    deliveryAreas
  }
`;

const SocialFragment = graphql`
  fragment pageShapes_social on SocialLinks @inline {
    facebook
    instagram
    twitter
    youtube
    tiktok
  }
`;

/** The page's fulfillment, or a page's defaults where there is no page yet (pickup only). */
export function readFulfillment(key: pageShapes_fulfillment$key | null | undefined): Fulfillment {
  if (!key) return { pickup: true, shipping: false, delivery: false, pickupPoints: [], shippingText: "Nationwide Shipping", deliveryAreas: [] };
  const { pickup, shipping, delivery, pickupPoints, shippingText, deliveryAreas } = readInlineData(FulfillmentFragment, key);
  return { pickup, shipping, delivery, pickupPoints: [...pickupPoints], shippingText, deliveryAreas: [...deliveryAreas] };
}

/** The page's social links, or none where there is no page yet. */
export function readSocialLinks(key: pageShapes_social$key | null | undefined): SocialLinks {
  if (!key) return { facebook: "", instagram: "", twitter: "", youtube: "", tiktok: "" };
  const { facebook, instagram, twitter, youtube, tiktok } = readInlineData(SocialFragment, key);
  return { facebook, instagram, twitter, youtube, tiktok };
}
