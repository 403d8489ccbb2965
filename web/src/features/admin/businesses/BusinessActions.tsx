import { Button, Link, Wrap } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { viewSiteUrl } from "../siteUrl.ts";

/** Row actions of a business: Dashboard, Edit Page, View Site (new tab), and the admin-only extras. */
export function BusinessLinks({ business, children }: { business: { databaseId: number; slug: string; name: string }; children?: React.ReactNode }) {
  const base = `/admin/business/${business.databaseId}`;
  return (
    <Wrap gap="2">
      <Button asChild size="xs" variant="outline">
        <RouterLink to={base} aria-label={`Dashboard of ${business.name}`}>
          Dashboard
        </RouterLink>
      </Button>
      <Button asChild size="xs" variant="outline">
        <RouterLink to={`${base}/page`} aria-label={`Edit Page of ${business.name}`}>
          Edit Page
        </RouterLink>
      </Button>
      <Button asChild size="xs" variant="outline">
        <Link href={viewSiteUrl(business.slug, window.location)} target="_blank" rel="noopener" aria-label={`View Site of ${business.name}`}>
          View Site
        </Link>
      </Button>
      {children}
    </Wrap>
  );
}
