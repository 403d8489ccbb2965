import { Suspense, useState, type ReactNode } from "react";
import { Outlet, useLocation, useMatch, useNavigate } from "react-router";
import { AdminGuard } from "../../features/admin/AdminGuard.tsx";
import { BusinessNavGate, type GatedBusinessEntry } from "../../features/admin/BusinessNavGate.tsx";
import { MailNavGate } from "../../features/admin/mail/MailNavGate.tsx";
import { clearStoredSession, readAdminSession } from "../../features/admin/session.ts";
import { AdminShell, type AdminNavSection } from "../../ui/admin/AdminShell.tsx";
import { ErrorBoundary } from "../../ui/ErrorBoundary.tsx";
import { ErrorState, LoadingState } from "../../ui/StatusStates.tsx";

/** The sidebar's sections: the platform's (administrators), the business in view (else an owner's last), the account's. */
export function navSections(isAdmin: boolean, businessId: string | undefined): AdminNavSection[] {
  const sections: AdminNavSection[] = [];
  if (isAdmin) {
    sections.push({
      items: [
        { to: "/admin", label: "Dashboard", end: true },
        { to: "/admin/businesses", label: "Businesses" },
        { to: "/admin/memberships", label: "Memberships" },
        { to: "/admin/fulfilment", label: "Fulfilment" },
        { to: "/admin/next-boxes", label: "Next Boxes" },
        { to: "/admin/page", label: "Home Page" },
        { to: "/admin/coupons", label: "Coupons" },
        { to: "/admin/fees", label: "Fees" },
        { to: "/admin/users", label: "Users" },
        { to: "/admin/jobs", label: "Jobs" },
        { to: "/admin/mail", label: "Sent mail" },
      ],
    });
  }
  if (businessId) {
    const base = `/admin/business/${businessId}`;
    // Administrators always may; others when the server says so (owners).
    const gate = (entry: GatedBusinessEntry) =>
      isAdmin
        ? undefined
        : (link: ReactNode) => (
            <BusinessNavGate businessId={Number(businessId)} entry={entry}>
              {link}
            </BusinessNavGate>
          );
    sections.push({
      title: "This business",
      items: [
        { to: base, label: "Dashboard", end: true },
        { to: `${base}/page`, label: "Edit Page" },
        { to: `${base}/next-box`, label: "Next Box" },
        // The member page (from the list, the dashboard, the Fulfilment screen) is one of the list's.
        { to: `${base}/memberships`, label: "Memberships", currentOn: [`${base}/members/*`] },
        { to: `${base}/fulfilment`, label: "Fulfilment" },
        { to: `${base}/coupons`, label: "Coupons", gate: gate("coupons") },
        { to: `${base}/payouts`, label: "Payouts", gate: gate("payouts") },
        { to: `${base}/api-tokens`, label: "API Tokens", gate: gate("apiTokens") },
      ],
    });
  }
  sections.push({
    title: "Account",
    items: [
      { to: "/admin/my", label: "My Businesses" },
      // Owners read their businesses' mail; administrators find it above.
      ...(isAdmin ? [] : [{ to: "/admin/mail", label: "Sent mail", gate: (entry: ReactNode) => <MailNavGate>{entry}</MailNavGate> }]),
      { to: "/admin/change-password", label: "Change Password" },
    ],
  });
  return sections;
}

/**
 * The business whose links the sidebar shows: the one in the path and, for an owner on an account screen (Sent
 * mail, My Businesses, Change Password), the one they last opened, else their home business, so their sidebar stays
 * the same on every screen. Administrators' account screens are platform-wide: theirs shows a business inside it
 * only.
 */
function useSidebarBusiness(isAdmin: boolean, ownerHomePath: string | null): string | undefined {
  const inPath = useMatch("/admin/business/:id/*")?.params.id;
  const [lastOpened, setLastOpened] = useState(inPath);
  if (inPath && inPath !== lastOpened) setLastOpened(inPath);
  if (inPath || isAdmin) return inPath;
  return lastOpened ?? /^\/admin\/business\/(\d+)$/.exec(ownerHomePath ?? "")?.[1];
}

/** /admin/*: guard, then the admin shell around the page. */
export default function AdminLayoutRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  const { isAdmin, ownerHomePath } = readAdminSession();
  const businessId = useSidebarBusiness(isAdmin, ownerHomePath);
  const logout = () => {
    clearStoredSession();
    void navigate("/membership");
  };
  return (
    <AdminGuard>
      <AdminShell sections={navSections(isAdmin, businessId)} onLogout={logout}>
        <ErrorBoundary key={location.pathname} fallback={(error) => <ErrorState message={error.message || "Something went wrong"} onRetry={() => navigate(0)} />}>
          <Suspense fallback={<LoadingState label="Loading…" />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </AdminShell>
    </AdminGuard>
  );
}
