import { Box, Button, Container, Stack, Text } from "@chakra-ui/react";
import { Suspense, useEffect, useState } from "react";
import { graphql } from "react-relay";
import { Link as RouterLink, useParams, useSearchParams } from "react-router";
import type { BusinessRouteQuery } from "./__generated__/BusinessRouteQuery.graphql.ts";
import { BusinessFaqs } from "../features/business-page/BusinessFaqs.tsx";
import { BusinessFooter } from "../features/business-page/BusinessFooter.tsx";
import { BusinessHero } from "../features/business-page/BusinessHero.tsx";
import { MembershipBuilder } from "../features/business-page/MembershipBuilder.tsx";
import { pageSurface } from "../lib/color.ts";
import { useRefetchKey, useRouteQuery } from "../lib/routeQuery.ts";
import { useSessionVersion } from "../lib/session.ts";
import { STORAGE_KEYS, writeItem } from "../lib/storage.ts";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { ErrorBoundary } from "../ui/ErrorBoundary.tsx";
import { PageContent, useOwnFooter } from "../ui/PageShell.tsx";
import { EmptyMessage, ErrorState } from "../ui/StatusStates.tsx";
import { PageLoading } from "./PageLoading.tsx";

// @raw_response_type: the page editor's preview builds this response from an unsaved draft (previewPage.ts).
const BusinessQuery = graphql`
  query BusinessRouteQuery($slug: String!) @raw_response_type {
    business(slug: $slug) {
      name
      slug
      page {
        theme {
          pageBg
        }
        ...BusinessFaqsFragment_page
        ...BusinessFooterFragment_page
      }
      ...BusinessHeroFragment_business
      ...MembershipBuilderFragment_business
    }
    viewer {
      subscriptions(businessSlug: $slug, onePerBusiness: true) {
        status
        ...MembershipBuilderFragment_membership
      }
    }
  }
`;

/** /b/:slug (or `/` on a tenant host, with the slug forced from the host): a business's page. */
export default function BusinessRoute({ forcedSlug }: { forcedSlug?: string }) {
  const params = useParams();
  const slug = (forcedSlug ?? params.slug ?? "").toLowerCase();
  const [attempt, setAttempt] = useState(0);
  // A retry, or a sign-in or sign-out elsewhere, loads the page again (the viewer's membership changes).
  const refetchKey = useRefetchKey(attempt, useSessionVersion());
  return (
    <ErrorBoundary
      key={`${slug}:${attempt}`}
      fallback={() => (
        <PageContent>
          <ErrorState message="Failed to load this business. Please try again." onRetry={() => setAttempt((n) => n + 1)} />
        </PageContent>
      )}
    >
      <Suspense fallback={<PageLoading label="Loading business…" />}>
        <BusinessPage slug={slug} fetchKey={refetchKey} retried={attempt > 0} onTenantHost={!!forcedSlug} />
      </Suspense>
    </ErrorBoundary>
  );
}

function BusinessPage({ slug, fetchKey, retried, onTenantHost }: { slug: string; fetchKey: string | undefined; retried: boolean; onTenantHost: boolean }) {
  const { business, viewer } = useRouteQuery<BusinessRouteQuery>(BusinessQuery, { slug }, { fetchKey, fetchPolicy: retried ? "network-only" : "store-and-network" });
  const [params] = useSearchParams();
  const changeMode = params.get("change") === "true";
  useDocumentTitle(business ? business.name : "Business not found");
  // The business footer (legal links, copyright, support phone) is the page's only footer.
  useOwnFooter(!!business?.page);
  useEffect(() => {
    // Spec §3 current_tenant: later API calls from pages without /b/{slug} (portal, checkout) use this business.
    if (business) writeItem(STORAGE_KEYS.currentTenant, business.slug.toLowerCase());
  }, [business]);

  if (!business) return <BusinessNotFound slug={slug} />;
  const base = onTenantHost ? "" : `/b/${business.slug}`;
  const membership = viewer?.subscriptions.find((s) => s.status !== "INCOMPLETE") ?? null;
  return <BusinessPageBody business={business} membership={membership} changeMode={changeMode} base={base} loggedIn={!!viewer} />;
}

type LoadedBusiness = NonNullable<BusinessRouteQuery["response"]["business"]>;
type ViewerMembership = NonNullable<BusinessRouteQuery["response"]["viewer"]>["subscriptions"][number];

/**
 * The business page itself, from its query's data: the live page's, and the editor's preview of an unsaved
 * draft (`preview`: its own store holds the draft as this query's response, and Checkout only says it is disabled).
 */
export function BusinessPageBody({ business, membership, changeMode = false, base, loggedIn, preview }: { business: LoadedBusiness; membership: ViewerMembership | null; changeMode?: boolean; base: string; loggedIn: boolean; preview?: boolean }) {
  const pageBg = business.page?.theme.pageBg ?? "#ffffff";
  const surface = pageSurface(pageBg);
  return (
    <Box bg={pageBg} color={surface.text} data-theme-dark={surface.light || undefined} minH="full">
      {changeMode && (
        <Box bg="blue.50" color="blue.900" borderBottomWidth="1px" borderColor="blue.200">
          <Container maxW="6xl" py="3">
            <Text fontWeight="medium">Change mode: pick a new package, add-ons or fulfillment. Changes take effect next billing cycle.</Text>
          </Container>
        </Box>
      )}
      <BusinessHero business={business} portalPath={`${base}/membership`} signedIn={loggedIn} />
      <Container maxW="6xl" py={{ base: "6", md: "10" }}>
        <Stack gap="12">
          <MembershipBuilder business={business} membership={membership} changeMode={changeMode} preview={preview} checkoutPath={`${base}/membership/checkout`} loggedIn={loggedIn} />
          {business.page && <BusinessFaqs page={business.page} />}
        </Stack>
      </Container>
      {business.page && <BusinessFooter page={business.page} />}
    </Box>
  );
}

function BusinessNotFound({ slug }: { slug: string }) {
  return (
    <PageContent>
      <EmptyMessage titleAs="h1" title="Business not found" description={`There is no business at “${slug}”. It may have moved or closed its memberships.`}>
        <Stack direction={{ base: "column", sm: "row" }} gap="3">
          <Button asChild colorPalette="orange">
            <RouterLink to="/businesses">Browse businesses</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to="/">Back to Home</RouterLink>
          </Button>
        </Stack>
      </EmptyMessage>
    </PageContent>
  );
}
