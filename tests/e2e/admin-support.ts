import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const CLOCK = new Date("2026-03-05T15:00:00Z");

interface Session {
  token: string;
  tenant: string | null;
  user: { id: number; username: string; is_admin: boolean; public_id: string };
}

/** Logs in through the GraphQL login mutation (what the portal's form calls). */
export async function apiLogin(request: APIRequestContext, username: string, password: string): Promise<Session> {
  const response = await request.post("/graphql", {
    data: {
      query: `mutation($input: LoginInput!) { login(input: $input) { __typename ... on LoginSuccess { data { token tenant user { databaseId username isAdmin publicId } } } ... on Error { message } } }`,
      variables: { input: { username, password } },
    },
  });
  const body = await response.json();
  const result = body.data.login;
  expect(result.__typename, JSON.stringify(body)).toBe("LoginSuccess");
  const { token, tenant, user } = result.data;
  return { token, tenant, user: { id: user.databaseId, username: user.username, is_admin: user.isAdmin, public_id: user.publicId } };
}

/** Stores the session under the spec's keys (lib/storage.ts) before any page script runs. */
export async function loginAs(page: Page, username: string, password: string): Promise<Session> {
  const session = await apiLogin(page.request, username, password);
  await page.clock.install({ time: CLOCK });
  await page.addInitScript((s) => {
    if (sessionStorage.getItem("e2e_logged_in")) return;
    sessionStorage.setItem("e2e_logged_in", "1");
    localStorage.setItem("auth_token", s.token);
    localStorage.setItem("auth_user", JSON.stringify(s.user));
    if (s.tenant) localStorage.setItem("auth_tenant", s.tenant);
  }, session);
  return session;
}

/** A GraphQL call with the session's bearer (to check what the server refuses). */
export async function gql(request: APIRequestContext, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await request.post("/graphql", { data: { query, variables }, headers: { Authorization: `Bearer ${token}` } });
  return response.json();
}

const WIDTHS = [375, 1280];

/** Full-page screenshots at phone and desktop widths under test-results/screenshots/. */
export async function screenshots(page: Page, name: string, ready?: () => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    if (ready) await ready();
    // Sticky sidebars and bars land where the page is scrolled: capture from the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/screenshots/admin-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
