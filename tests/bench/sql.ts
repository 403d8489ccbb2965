/**
 * Hand-written SQL for the rows each benchmarked read returns: the floor the API is compared with (API/SQL).
 * Each function runs what a careful hand-written data layer would run for that screen, through `pg`.
 */
import type pg from "pg";

type Q = Pick<pg.Pool, "query">;

/** Business page: page, listed plans with their prices per mode, listed add-ons, member count. One statement. */
export async function businessPageSql(db: Q, slug: string) {
  const { rows } = await db.query(
    `SELECT b.id, b.slug, b.name, row_to_json(p) AS page,
       (SELECT json_agg(json_build_object('id', pl.id, 'ref', pl.ref, 'name', pl.name, 'description', pl.description,
                 'descriptionHtml', pl.description_html,
                 'variations', (SELECT json_agg(json_build_object('mode', v.mode, 'amountCents', v.amount_cents) ORDER BY v.mode)
                                  FROM plan_variations v WHERE v.plan_id = pl.id)) ORDER BY pl.position, pl.id)
          FROM plans pl WHERE pl.business_id = b.id AND pl.listed AND pl.archived_at IS NULL) AS plans,
       (SELECT json_agg(json_build_object('id', a.id, 'ref', a.ref, 'name', a.name, 'description', a.description, 'amountCents', a.amount_cents) ORDER BY a.position, a.id)
          FROM addons a WHERE a.business_id = b.id AND a.listed AND a.archived_at IS NULL) AS addons,
       (SELECT count(*)::int FROM subscriptions s WHERE s.business_id = b.id AND s.status IN ('ACTIVE', 'PAST_DUE')) AS member_count
     FROM businesses b LEFT JOIN pages p ON p.business_id = b.id
     WHERE b.slug = $1`,
    [slug],
  );
  return rows;
}

export interface MembershipsArgs {
  search: string;
  /** ACTIVE = active or past due, as the API's filter. */
  status: "ACTIVE" | "ANY";
  limit: number;
  /** Keyset position of the page (startedAt, id of the row before it). */
  after?: { startedAt: Date; id: number } | null;
}

/** Admin memberships table: search over member and business, status filter, newest first, keyset page. */
export async function membershipsSql(db: Q, a: MembershipsArgs) {
  const params: unknown[] = [`%${a.search}%`, a.limit];
  let cursor = "";
  if (a.after) {
    params.push(a.after.startedAt, a.after.id);
    cursor = `AND (s.started_at, s.id) < ($3, $4)`;
  }
  const status = a.status === "ACTIVE" ? `s.status IN ('ACTIVE', 'PAST_DUE')` : `s.status <> 'INCOMPLETE'`;
  const { rows } = await db.query(
    `SELECT s.id, s.provider_subscription_id, u.public_id, u.username, coalesce(s.email, u.email) AS email, s.status,
            s.started_at, s.canceled_at, pl.name AS plan_name, b.slug, b.name AS business_name
       FROM subscriptions s
       JOIN users u ON u.id = s.user_id
       JOIN businesses b ON b.id = s.business_id
       JOIN plans pl ON pl.id = s.plan_id
      WHERE ${status}
        AND (u.username ILIKE $1 OR u.name ILIKE $1 OR u.email ILIKE $1 OR s.email ILIKE $1 OR b.name ILIKE $1 OR b.slug ILIKE $1)
        ${cursor}
      ORDER BY s.started_at DESC, s.id DESC
      LIMIT $2`,
    params,
  );
  return rows;
}

/** Member portal: profile and saved card, memberships with business, next box, plan, add-ons, change, skips; 50 orders. */
export async function portalSql(db: Q, userId: number) {
  const user = await db.query(
    `SELECT u.id, u.username, u.email, u.name, u.phone, u.address, u.is_admin,
            (SELECT row_to_json(m) FROM (SELECT brand, last4, exp_month, exp_year FROM payment_methods pm
               WHERE pm.user_id = u.id AND pm.is_default ORDER BY pm.created_at DESC LIMIT 1) m) AS card
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  const subs = await db.query(
    `SELECT s.*, b.name AS business_name, b.slug, b.time_zone, nb.content_html AS next_box,
            row_to_json(p) AS page, pl.name AS plan_name,
            (SELECT json_agg(json_build_object('name', a.name, 'amountCents', sa.amount_cents))
               FROM subscription_addons sa JOIN addons a ON a.id = sa.addon_id WHERE sa.subscription_id = s.id) AS addons,
            (SELECT row_to_json(c) FROM (SELECT sc.effective_period, sc.mode, cp.name AS plan_name
               FROM subscription_changes sc JOIN plans cp ON cp.id = sc.plan_id WHERE sc.subscription_id = s.id) c) AS pending_change,
            (SELECT json_agg(k.year_month) FROM skips k WHERE k.subscription_id = s.id) AS skips
       FROM subscriptions s
       JOIN businesses b ON b.id = s.business_id
       LEFT JOIN pages p ON p.business_id = b.id
       LEFT JOIN next_boxes nb ON nb.business_id = b.id
       JOIN plans pl ON pl.id = s.plan_id
      WHERE s.user_id = $1 AND s.status <> 'INCOMPLETE'`,
    [userId],
  );
  const orders = await db.query(
    `SELECT o.id, o.created_at, o.kind, o.period, o.mode, o.total_cents, o.refunded_cents, o.selection, b.name AS business_name
       FROM orders o JOIN businesses b ON b.id = o.business_id
      WHERE o.user_id = $1 ORDER BY o.created_at DESC, o.id DESC LIMIT 50`,
    [userId],
  );
  return [user.rows, subs.rows, orders.rows];
}

/** Business dashboard: totals by status, revenue, average price, 12-month series, 10 newest memberships. */
export async function dashboardSql(db: Q, businessId: number, months: string[], timeZone: string) {
  const totals = await db.query(
    `SELECT status, count(*)::int AS n FROM subscriptions WHERE business_id = $1 AND status <> 'INCOMPLETE' GROUP BY status`,
    [businessId],
  );
  const revenue = await db.query(`SELECT coalesce(sum(total_cents - refunded_cents), 0)::bigint AS cents FROM orders WHERE business_id = $1`, [businessId]);
  const average = await db.query(
    `SELECT coalesce(avg(total_cents), 0)::int AS cents FROM subscriptions WHERE business_id = $1 AND status IN ('ACTIVE', 'PAST_DUE')`,
    [businessId],
  );
  const active = await db.query(
    `SELECT to_char(m.start, 'YYYY-MM') AS ym, count(s.id)::int AS n
       FROM generate_series($2::timestamp, $3::timestamp, interval '1 month') AS m(start)
       LEFT JOIN subscriptions s
         ON s.business_id = $1 AND s.status <> 'INCOMPLETE'
        AND ((s.started_at AT TIME ZONE 'UTC') AT TIME ZONE $4) < m.start + interval '1 month'
        AND (s.canceled_at IS NULL OR ((s.canceled_at AT TIME ZONE 'UTC') AT TIME ZONE $4) >= m.start)
      GROUP BY m.start ORDER BY m.start`,
    [businessId, `${months[0]}-01`, `${months[months.length - 1]}-01`, timeZone],
  );
  const byPeriod = await db.query(
    `SELECT period, sum(total_cents - refunded_cents)::bigint AS cents FROM orders WHERE business_id = $1 AND period = ANY($2) GROUP BY period`,
    [businessId, months],
  );
  const recent = await db.query(
    `SELECT s.id, u.public_id, u.username, s.status, s.started_at, b.slug
       FROM subscriptions s JOIN users u ON u.id = s.user_id JOIN businesses b ON b.id = s.business_id
      WHERE s.business_id = $1 AND s.status <> 'INCOMPLETE' ORDER BY s.started_at DESC, s.id DESC LIMIT 10`,
    [businessId],
  );
  return [totals.rows, revenue.rows, average.rows, active.rows, byPeriod.rows, recent.rows];
}
