import { Download, ExternalLink, FileText } from 'lucide-react';
import { buttonStyles } from '../../../components/ui/button-styles';

/** "Download receipt", saved as receipt-<name>.pdf|png|jpg by the blob's type. */
export function ReceiptDownloadLink({
  url,
  blob,
  name,
  className,
}: {
  url: string;
  blob: Blob | null | undefined;
  name: string;
  className: string;
}) {
  const extension = blob?.type === 'application/pdf' ? 'pdf' : blob?.type === 'image/png' ? 'png' : 'jpg';
  const fileName = `receipt-${name}`.replace(/[^A-Za-z0-9-]+/g, '-').toLowerCase();
  return (
    <a href={url} download={`${fileName}.${extension}`} className={buttonStyles('ghost', 'md', className)}>
      <Download className="size-4" aria-hidden="true" />
      Download receipt
    </a>
  );
}

/**
 * A PDF receipt opens in the browser's own viewer in a new tab, never framed in the
 * console: Chromium's PDF viewer does not run in a sandboxed frame, and the CSP allows no frames.
 */
export function PdfReceiptLink({ url, className = '' }: { url: string; className?: string }) {
  return (
    <div className={`flex flex-col items-center gap-3 p-4 text-center ${className}`}>
      <FileText className="size-12 text-gold-300" aria-hidden="true" />
      <p className="font-bold">PDF receipt</p>
      <p className="text-sm text-ash">It opens in your browser's PDF viewer, in a new tab.</p>
      <a href={url} target="_blank" rel="noopener noreferrer" className={buttonStyles('primary', 'md')}>
        <ExternalLink className="size-5" aria-hidden="true" />
        Open PDF receipt
      </a>
    </div>
  );
}
