import { Chart, useChart } from "@chakra-ui/charts";
import { SimpleGrid } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { EmptyLine, Panel } from "../../../ui/admin/AdminPage.tsx";
import { formatYearMonth } from "../format.ts";
import type { MonthlyChartsFragment$key } from "./__generated__/MonthlyChartsFragment.graphql.ts";

interface MonthPoint {
  month: string;
  activeMembers: number;
  revenue: number;
}

/** Active members and revenue over the last 12 months. */
export function MonthlyCharts({ metrics }: { metrics: MonthlyChartsFragment$key }) {
  const data = useFragment(
    graphql`
      fragment MonthlyChartsFragment on DashboardMetrics {
        monthly {
          yearMonth
          activeMembers
          revenueCents
        }
      }
    `,
    metrics,
  );
  const points: MonthPoint[] = data.monthly.map((m) => ({ month: formatYearMonth(m.yearMonth), activeMembers: m.activeMembers, revenue: m.revenueCents / 100 }));
  const empty = points.every((p) => p.activeMembers === 0 && p.revenue === 0);
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
      <Panel title="Active members by month">{empty ? <EmptyLine>No data yet</EmptyLine> : <MembersChart points={points} />}</Panel>
      <Panel title="Revenue by month">{empty ? <EmptyLine>No data yet</EmptyLine> : <RevenueChart points={points} />}</Panel>
    </SimpleGrid>
  );
}

function MembersChart({ points }: { points: MonthPoint[] }) {
  const chart = useChart({ data: points, series: [{ name: "activeMembers", label: "Active members", color: "teal.solid" }] });
  return (
    <Chart.Root maxH="64" chart={chart} role="figure" aria-label="Active members by month">
      <LineChart responsive style={{ width: "100%", height: "100%" }} data={chart.data} margin={{ left: -20, right: 8 }}>
        <CartesianGrid stroke={chart.color("border")} vertical={false} />
        <XAxis dataKey={chart.key("month")} tickLine={false} axisLine={false} fontSize={12} />
        <YAxis allowDecimals={false} tickLine={false} axisLine={false} fontSize={12} />
        <Tooltip animationDuration={100} cursor={false} content={<Chart.Tooltip />} />
        {chart.series.map((s) => (
          <Line key={s.name} isAnimationActive={false} dataKey={chart.key(s.name)} stroke={chart.color(s.color)} strokeWidth={2} dot={false} />
        ))}
      </LineChart>
    </Chart.Root>
  );
}

function RevenueChart({ points }: { points: MonthPoint[] }) {
  const chart = useChart({ data: points, series: [{ name: "revenue", label: "Revenue", color: "orange.solid" }] });
  return (
    <Chart.Root maxH="64" chart={chart} role="figure" aria-label="Revenue by month">
      <BarChart responsive style={{ width: "100%", height: "100%" }} data={chart.data} margin={{ left: -10, right: 8 }}>
        <CartesianGrid stroke={chart.color("border")} vertical={false} />
        <XAxis dataKey={chart.key("month")} tickLine={false} axisLine={false} fontSize={12} />
        <YAxis tickLine={false} axisLine={false} fontSize={12} tickFormatter={chart.formatNumber({ style: "currency", currency: "USD", maximumFractionDigits: 0 })} />
        <Tooltip cursor={{ fill: chart.color("bg.muted") }} animationDuration={100} content={<Chart.Tooltip />} />
        {chart.series.map((s) => (
          <Bar key={s.name} isAnimationActive={false} dataKey={chart.key(s.name)} fill={chart.color(s.color)} radius={4} />
        ))}
      </BarChart>
    </Chart.Root>
  );
}
