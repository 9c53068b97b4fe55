import { DEFAULT_TERMS_SECTIONS } from '@rally/shared/catalog/privacy-notice-default';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Modal } from '../../../components/ui/modal';
import { MarkdownView } from '../../privacy/components/markdown-view';

// The built-in terms are the first published version's (one text, in the shared catalog).
const SECTIONS = DEFAULT_TERMS_SECTIONS;

interface TermsModalProps {
  open: boolean;
  onClose: () => void;
  onAgree: () => void;
  /** The terms now published (GET /api/privacy/notice, Markdown); until they load, the built-in ones. */
  termsText?: string;
}

export function TermsModal({ open, onClose, onAgree, termsText }: TermsModalProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Terms and Conditions"
      className="max-w-2xl"
      footer={
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} className={buttonStyles('ghost')}>
            Close
          </button>
          <button type="button" onClick={onAgree} className={buttonStyles('primary')}>
            I Agree
          </button>
        </div>
      }
    >
      {termsText ? (
        <MarkdownView text={termsText} headingBase={3} className="text-sm" />
      ) : (
        <div className="space-y-5 text-sm leading-relaxed text-ash">
          {SECTIONS.map((section) => (
            <section key={section.title}>
              <h3 className="text-xl text-bone">{section.title}</h3>
              <ul className="mt-2 list-disc space-y-1.5 pl-5">
                {section.points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </Modal>
  );
}
