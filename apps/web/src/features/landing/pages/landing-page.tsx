import { SiteFooter } from '../../../components/layout/site-footer';
import { SiteHeader } from '../../../components/layout/site-header';
import { PageMeta, SITE_NAME } from '../../../components/ui/page-meta';
import { EventInfo } from '../components/event-info';
import { Hero } from '../components/hero';
import { JoinSection } from '../components/join-section';
import { RoutesSection } from '../components/routes-section';
import { TrialCards } from '../components/trial-cards';

export function LandingPage() {
  return (
    <div className="min-h-dvh bg-ink-950">
      <PageMeta
        title={SITE_NAME}
        path="/"
        description="Register for the Mindanao Warriors Endurance Rally, November 15-16, 2025: three trials of 359KM, 603KM and 1213KM across Mindanao. Limited slots."
      />
      <SiteHeader transparent />
      <main id="main">
        <Hero />
        <TrialCards />
        <RoutesSection />
        <EventInfo />
        <JoinSection />
      </main>
      <SiteFooter />
    </div>
  );
}
