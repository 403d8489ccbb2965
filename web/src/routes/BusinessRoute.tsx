import { Button, Stack } from "@chakra-ui/react";
import { Suspense, useEffect, useState } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { Link as RouterLink, useParams } from "react-router";
import type { BusinessRouteQuery } from "./__generated__/BusinessRouteQuery.graphql.ts";
import { BusinessHero } from "../features/business-page/BusinessHero.tsx";
import { STORAGE_KEYS, writeItem } from "../lib/storage.ts";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { ErrorBoundary } from "../ui/ErrorBoundary.tsx";
import { PageContent } from "../ui/PageShell.tsx";
import { EmptyMessage, ErrorState, LoadingState } from "../ui/StatusStates.tsx";

const BusinessQuery = graphql`
  query BusinessRouteQuery($slug: String!) {
    business(slug: $slug) {
      name
      slug
      ...BusinessHeroFragment_business
    }
  }
`;

/** /b/:slug: a business's page. */
export default function BusinessRoute() {
  const slug = (useParams().slug ?? "").toLowerCase();
  const [attempt, setAttempt] = useState(0);
  return (
    <ErrorBoundary key={`${slug}:${attempt}`} fallback={() => (
      <PageContent>
        <ErrorState message="Failed to load this business. Please try again." onRetry={() => setAttempt((n) => n + 1)} />
      </PageContent>
    )}>
      <Suspense fallback={<LoadingState label="Loading business…" />}>
        <BusinessPage slug={slug} fetchKey={attempt} />
      </Suspense>
    </ErrorBoundary>
  );
}

function BusinessPage({ slug, fetchKey }: { slug: string; fetchKey: number }) {
  const { business } = useLazyLoadQuery<BusinessRouteQuery>(BusinessQuery, { slug }, { fetchKey, fetchPolicy: fetchKey ? "network-only" : "store-or-network" });
  useDocumentTitle(business ? business.name : "Business not found");
  useEffect(() => {
    // Spec §3 current_tenant: later API calls from pages without /b/{slug} (portal, checkout) use this business.
    if (business) writeItem(STORAGE_KEYS.currentTenant, business.slug.toLowerCase());
  }, [business]);

  if (!business) return <BusinessNotFound slug={slug} />;
  return <BusinessHero business={business} />;
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
