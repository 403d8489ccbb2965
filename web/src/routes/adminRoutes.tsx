import type { RouteObject } from "react-router";

/**
 * The admin area (/admin/*): its own layout, guard and pages. Mounted beside the public site by router.tsx.
 */
export const adminRoutes: RouteObject[] = [];
