import { EVENT } from '@rally/shared/catalog/landing';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Modal } from '../../../components/ui/modal';

const SECTIONS: Array<{ title: string; points: string[] }> = [
  {
    title: '1. Participation',
    points: [
      `The ${EVENT.name} (${EVENT.dates}) is open to riders aged 18 and over who hold a valid professional or non-professional driver's license with motorcycle restriction code.`,
      'Your motorcycle must be registered with the LTO, roadworthy and insured for the duration of the rally. Bring its OR/CR to the bike check.',
      'Slots are limited and are confirmed only once an administrator verifies your payment. Your rider number and kit are personal and cannot be transferred.',
    ],
  },
  {
    title: '2. Safety',
    points: [
      'A full-face or modular DOT/ECE/SNI-certified helmet, riding jacket, gloves, long pants and closed boots are mandatory from flag-off to finish. Riders without them will not be flagged off.',
      'You must pass the pre-ride bike check (brakes, tyres, lights, horn, chain) and attend the safety briefing.',
      'Obey all traffic laws and speed limits. The rally is an endurance ride, not a race: there is no prize for the fastest time.',
      'Never ride under the influence of alcohol or drugs. Rest whenever you are tired; fatigue is the most dangerous road condition on a long loop.',
    ],
  },
  {
    title: '3. Liability Waiver',
    points: [
      'Motorcycle riding on public roads carries an inherent risk of accident, injury, death and damage to property. You take part voluntarily and accept these risks.',
      'You release the organizers, the host club, marshalls, sponsors and volunteers from any claim for injury, loss or damage arising from your participation, except where caused by their gross negligence.',
      'You are responsible for your own motorcycle, equipment and belongings, and for any damage you cause to third parties.',
    ],
  },
  {
    title: '4. Rules',
    points: [
      'Follow the official route and check in at every checkpoint with your QR sticker. Missing a checkpoint may void your finish.',
      'Instructions from marshalls and officers are final on the road. Respect local communities, other road users and the environment; leave no trash behind.',
      'Reckless riding, unsafe overtaking, convoy blocking or abusive behaviour leads to disqualification without refund.',
    ],
  },
  {
    title: '5. Registration and Payment',
    points: [
      'Registration is complete only after payment is received and verified by an administrator. Upload a clear receipt for GCash or bank transfer payments.',
      'Registration fees are non-refundable unless the organizers cancel the event. Fees cannot be transferred to another rider or to a future edition.',
      'The organizers may change the route, schedule or checkpoints for safety, weather or permit reasons without a refund.',
    ],
  },
  {
    title: '6. Medical',
    points: [
      'You declare that you are physically and mentally fit to ride long distances over two days. Consult a doctor first if you have a heart, respiratory or other medical condition.',
      'Tell the organizers about allergies, conditions and medication that first responders should know, and bring your own maintenance medicine.',
      'You authorize the organizers to arrange first aid and emergency medical transport for you. Its costs beyond the rally insurance are yours.',
    ],
  },
  {
    title: '7. Data Privacy',
    points: [
      'Your personal data is collected and processed under the Data Privacy Act of 2012 (RA 10173) only to run the rally: registration, payment verification, kits, safety and emergency contact.',
      'Your public rider profile shows your name, kit name, rider number, motorcycle and category. Your email, phone number, address, birthdate, emergency contact and payment details are never shown publicly.',
      'Photos and videos taken during the rally may be used to promote future editions. You may ask the organizers to access, correct or delete your data at any time.',
    ],
  },
  {
    title: '8. Insurance',
    points: [
      'Every verified rider is covered by personal accident insurance for the rally days: one insurer covers the Lakambini, Magani and Lakan trials, another covers the Bagani trial.',
      'Coverage applies only while you follow the official route and rules. Your details are shared with the insurer for this purpose only.',
      'The rally insurance does not replace your motorcycle’s compulsory insurance or your own health cover.',
    ],
  },
];

interface TermsModalProps {
  open: boolean;
  onClose: () => void;
  onAgree: () => void;
}

export function TermsModal({ open, onClose, onAgree }: TermsModalProps) {
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
    </Modal>
  );
}
