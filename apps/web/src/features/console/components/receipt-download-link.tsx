import { Download } from 'lucide-react';
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
