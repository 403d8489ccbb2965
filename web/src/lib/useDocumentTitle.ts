import { useEffect } from "react";

const SITE_NAME = "Harvest & Hearth Memberships";

/** Sets the browser tab title for a route ("Businesses · Harvest & Hearth Memberships"). */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE_NAME}` : SITE_NAME;
  }, [title]);
}
