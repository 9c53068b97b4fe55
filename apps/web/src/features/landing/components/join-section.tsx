import { Flame } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';

const PARALLAX_FACTOR = 0.5;
const PARALLAX_MIN_WIDTH = '(min-width: 768px)';

export function JoinSection() {
  const layerRef = useRef<HTMLDivElement>(null);

  // Parallax: at 768px and wider the background layer moves down by half the
  // scroll offset. Written straight to the element so scrolling never re-renders React.
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    const wide = window.matchMedia(PARALLAX_MIN_WIDTH);
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
    let frame = 0;
    const apply = () => {
      frame = 0;
      layer.style.transform =
        wide.matches && !reduced.matches ? `translate3d(0, ${window.scrollY * PARALLAX_FACTOR}px, 0)` : '';
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(apply);
    };
    apply();
    window.addEventListener('scroll', schedule, { passive: true });
    wide.addEventListener('change', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      wide.removeEventListener('change', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);

  return (
    <section aria-labelledby="join-title" className="relative overflow-hidden border-y-4 border-fire-600 bg-ink-900">
      {/* Tall repeating pattern, so it still fills the section however far it has moved. */}
      <div
        ref={layerRef}
        data-testid="parallax-layer"
        aria-hidden="true"
        className="tribal-stripes absolute inset-x-0 -top-[400vh] bottom-0 will-change-transform"
      />
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(ellipse_at_center,rgb(12_10_9/0.2),rgb(12_10_9/0.9)_75%)]"
      />
      <div className="relative mx-auto max-w-3xl px-4 py-20 text-center sm:py-28">
        <Flame className="mx-auto size-14 animate-flicker text-fire-500" aria-hidden="true" />
        <h2 id="join-title" className="mt-4 text-5xl sm:text-7xl">
          Your Number <span className="fire-text">Is Waiting</span>
        </h2>
        <p className="mx-auto mt-5 max-w-xl text-lg text-ash">
          Slots are limited. Claim your rider number, choose your trial and ride with the warriors of Mindanao.
        </p>
        <Link to="/register" className={buttonStyles('primary', 'lg', 'mt-10 w-full sm:w-auto sm:px-12')}>
          JOIN THE TRIBE
        </Link>
      </div>
    </section>
  );
}
