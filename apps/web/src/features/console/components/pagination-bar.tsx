import { ChevronLeft, ChevronRight } from 'lucide-react';
import { buttonStyles } from '../../../components/ui/button-styles';

/** Previous/Next with 'Page N of M'; hidden when everything fits on one page. */
export function PaginationBar({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 pt-3">
      <button
        type="button"
        className={buttonStyles('ghost', 'md', 'px-3')}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        <ChevronLeft className="size-4" aria-hidden="true" />
        Previous
      </button>
      <span className="text-sm text-ash" aria-live="polite">
        Page {page} of {totalPages}
      </span>
      <button
        type="button"
        className={buttonStyles('ghost', 'md', 'px-3')}
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        Next
        <ChevronRight className="size-4" aria-hidden="true" />
      </button>
    </nav>
  );
}
