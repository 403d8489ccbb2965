import { Button, Link, Menu, Portal, Wrap } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { viewSiteUrl } from "../siteUrl.ts";

/** Row actions of a business: Dashboard, Edit Page, View Site (new tab), and the admin-only extras (`children`). */
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

/**
 * A business's rare actions, behind "More": Delete, set apart in a danger section so it is never clicked for a
 * routine one. `onDelete` asks spec §5's confirmation itself.
 */
export function BusinessMoreMenu({ business, onDelete }: { business: { name: string }; onDelete: () => void }) {
  return (
    // Mounted when opened: a page of 50 rows (and their phone cards) would otherwise build 100 hidden menus.
    <Menu.Root lazyMount unmountOnExit onSelect={({ value }) => value === "delete" && onDelete()}>
      <Menu.Trigger asChild>
        <Button size="xs" variant="outline" aria-label={`More actions for ${business.name}`}>
          More
          <svg width="12" height="12" viewBox="0 0 24 24" aria-hidden="true">
            <path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="44">
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel color="fg.error">Danger zone</Menu.ItemGroupLabel>
              <Menu.Item value="delete" color="fg.error" _highlighted={{ bg: "bg.error", color: "fg.error" }}>
                Delete business
              </Menu.Item>
            </Menu.ItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
