import { Chart, useChart } from "@chakra-ui/charts";
import { graphql, useFragment } from "react-relay";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { EmptyLine, Panel } from "../../../ui/admin/AdminPage.tsx";
import type { SubscriptionsByBusinessFragment$key } from "./__generated__/SubscriptionsByBusinessFragment.graphql.ts";

export function SubscriptionsByBusiness({ metrics }: { metrics: SubscriptionsByBusinessFragment$key }) {
  const data = useFragment(
    graphql`
      fragment SubscriptionsByBusinessFragment on AdminMetrics {
        subscriptionsByBusiness {
          businessSlug
          count
        }
      }
    `,
    metrics,
  );
  const rows = data.subscriptionsByBusiness.map((b) => ({ business: b.businessSlug, count: b.count }));
  return <Panel title="Subscriptions by business">{rows.length === 0 || rows.every((r) => r.count === 0) ? <EmptyLine>No data yet</EmptyLine> : <BusinessBars rows={rows} />}</Panel>;
}

function BusinessBars({ rows }: { rows: { business: string; count: number }[] }) {
  const chart = useChart({ data: rows, series: [{ name: "count", label: "Subscriptions", color: "purple.solid" }] });
  return (
    <Chart.Root maxH="72" chart={chart} role="figure" aria-label="Subscriptions by business">
      <BarChart responsive style={{ width: "100%", height: "100%" }} layout="vertical" data={chart.data} margin={{ left: 10, right: 16 }}>
        <CartesianGrid stroke={chart.color("border")} horizontal={false} />
        <XAxis type="number" allowDecimals={false} tickLine={false} axisLine={false} fontSize={12} />
        <YAxis type="category" dataKey={chart.key("business")} width={130} tickLine={false} axisLine={false} fontSize={12} />
        <Tooltip cursor={{ fill: chart.color("bg.muted") }} animationDuration={100} content={<Chart.Tooltip />} />
        {chart.series.map((s) => (
          <Bar key={s.name} isAnimationActive={false} dataKey={chart.key(s.name)} fill={chart.color(s.color)} radius={4} />
        ))}
      </BarChart>
    </Chart.Root>
  );
}
