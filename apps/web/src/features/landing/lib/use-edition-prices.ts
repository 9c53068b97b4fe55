// The landing page's prices: the current edition's (DESIGN.md §9). The page is prerendered
// and renders outside the app's query client (it stays light for a first visit on weak
// data), so it shows the catalog's prices first and asks the editions list once.
import { PRICES, type Prices } from '@rally/shared/catalog/registration';
import type { Edition } from '@rally/shared/contracts/editions';
import { useEffect, useState } from 'react';

export function useEditionPrices(): Prices {
  const [prices, setPrices] = useState<Prices>(PRICES);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/editions', { signal: controller.signal })
      .then((res) => (res.ok ? (res.json() as Promise<{ data: Edition[] }>) : null))
      .then((body) => {
        const current = body?.data.find((e) => e.current);
        if (current) setPrices(current.prices);
      })
      // Offline or refused: the catalog's prices stay, as prerendered.
      .catch(() => {});
    return () => controller.abort();
  }, []);
  return prices;
}
