import type { KitStats } from '@rally/shared/contracts/kit-tracking';
import { CircleCheck, Clock, Coins, ShieldHalf, Shirt, Sparkles, Users } from 'lucide-react';
import { formatPeso } from '../../../../lib/format';
import { StatCard, StatGrid } from '../../components/stat-card';

export function KitStatsCards({ stats }: { stats: KitStats | undefined }) {
  return (
    <StatGrid className="lg:grid-cols-4">
      <StatCard label="Total Participants" value={stats?.total} icon={Users} />
      <StatCard label="Pending Kits" value={stats?.pendingKits} icon={Clock} tone="text-gold-400" />
      <StatCard label="Completed Kits" value={stats?.completedKits} icon={CircleCheck} tone="text-jade-400" />
      <StatCard
        label="Expected Payments"
        value={stats ? formatPeso(stats.totalAmount) : undefined}
        icon={Coins}
        tone="text-gold-300"
        hint={stats?.actualPayments !== undefined ? `Actual: ${formatPeso(stats.actualPayments)}` : undefined}
      />
      <StatCard label="T-shirts Given" value={stats?.itemsGiven.tshirts} icon={Shirt} />
      <StatCard label="Vests Given" value={stats?.itemsGiven.vests} icon={ShieldHalf} />
      <StatCard label="Sleeves Given" value={stats?.itemsGiven.sleeves} icon={Sparkles} />
    </StatGrid>
  );
}
