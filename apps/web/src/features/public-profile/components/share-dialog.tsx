import { SHARE_COPY_CONFIRM_MS } from '@rally/shared/catalog/web-client';
import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../components/ui/field-styles';
import { Modal } from '../../../components/ui/modal';
import { toast } from '../../../lib/toast';

interface ShareDialogProps {
  open: boolean;
  onClose: () => void;
  url: string;
  riderName: string;
}

/** Clipboard API first; the old select-and-copy route for browsers or contexts without it. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

export function shareLinks(url: string, text: string) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(text);
  return [
    {
      name: 'Facebook',
      href: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
      className: 'bg-[#1565c0] text-white',
    },
    { name: 'Twitter', href: `https://twitter.com/intent/tweet?url=${u}&text=${t}`, className: 'bg-black text-white' },
    {
      name: 'WhatsApp',
      href: `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`,
      className: 'bg-[#25d366] text-ink-950',
    },
    { name: 'Telegram', href: `https://t.me/share/url?url=${u}&text=${t}`, className: 'bg-[#229ed9] text-ink-950' },
  ];
}

export function ShareDialog({ open, onClose, url, riderName }: ShareDialogProps) {
  const [copied, setCopied] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const text = `Check out ${riderName}'s warrior profile at the Mindanao Warriors Endurance Rally! 🔥`;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), SHARE_COPY_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const onCopy = async () => {
    if (await copyText(url, fieldRef.current)) setCopied(true);
    else toast.error('Could not copy the link. Select it and copy it by hand.');
  };

  return (
    <Modal open={open} onClose={onClose} title="Share Profile">
      <label htmlFor={fieldId} className={labelStyles}>
        Profile link
      </label>
      <div className="flex gap-2">
        <input
          id={fieldId}
          ref={fieldRef}
          readOnly
          value={url}
          className={`${inputStyles} min-w-0 font-mono text-sm`}
        />
        <button
          type="button"
          onClick={onCopy}
          className={buttonStyles(copied ? 'secondary' : 'primary', 'md', 'shrink-0')}
        >
          {copied ? <Check className="size-5" aria-hidden="true" /> : <Copy className="size-5" aria-hidden="true" />}
          {copied ? 'Copied!' : 'Copy'}
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-jade-400">
        {copied ? 'Link copied to clipboard!' : ''}
      </p>
      <p className="mt-4 mb-2 text-sm font-bold uppercase tracking-wide text-ash">Share on</p>
      <ul className="grid grid-cols-2 gap-2">
        {shareLinks(url, text).map((link) => (
          <li key={link.name}>
            <a
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              onClick={(event) => {
                // A small pop-up keeps the rider on the profile; the plain link still works without it.
                event.preventDefault();
                window.open(link.href, '_blank', 'width=600,height=400,noopener,noreferrer');
              }}
              className={`flex min-h-11 items-center justify-center rounded-md px-3 font-display tracking-wider uppercase hover:opacity-90 ${link.className}`}
            >
              {link.name}
            </a>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
