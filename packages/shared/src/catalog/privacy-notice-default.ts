// The texts of the privacy notice's first version (DESIGN.md §12), made on first need: the
// template of docs/privacy.md ("A privacy notice to adapt") and the terms the registration
// form has always shown (apps/web/.../terms-modal.tsx), both as Markdown. The organiser
// edits and republishes them in the console; these are only where an install starts.
import { EVENT } from './landing';

export const DEFAULT_PRIVACY_TEXT = `**Privacy notice: [Rally name] [year]**

[Organiser], [address], is the personal information controller of the data you give when
you register for the rally. Our data protection officer is [name], [email], [phone].

**What we collect and why.** Your name, contact details and address, to identify you and
reach you; your birthdate, for the rally's insurance; your emergency contact, blood type,
allergies and medical conditions, so that first aid and rescue can help you on the road;
your motorcycle and club, for the masterlist; your payment receipt, to verify your
payment; your passages at stations and, only if you turn tracking on, your position, for
your safety and your result.

**Who sees it.** Only the rally staff who need it for the purpose above: medical notes and
positions are shown to the safety team; your birthdate and emergency contact go to our
insurer, [insurer]. Your public profile shows your kit name, number, motorcycle, club and
photo, and what other riders write there.

**How long.** Medical notes and emergency contacts [30] days after the rally ends;
positions [30] days; receipts [1 year]; incidents [2 years]; your account until you ask us
to delete it. Results and finisher lists are kept as the rally's history.

**Your rights.** You may ask to see, correct, or delete your data, withdraw a consent, or
object, by writing to our data protection officer; we answer within 30 working days. You
may complain to the National Privacy Commission (privacy.gov.ph).

Published [date].
`;

/** The registration form's terms, section by section: terms-modal.tsx shows these until the published ones load. */
export const DEFAULT_TERMS_SECTIONS: ReadonlyArray<{ title: string; points: readonly string[] }> = [
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

/** The terms as Markdown: a `##` heading per section, a bullet per point. */
export const DEFAULT_TERMS_TEXT = `${DEFAULT_TERMS_SECTIONS.map(
  (s) => `## ${s.title}\n\n${s.points.map((p) => `- ${p}`).join('\n')}`,
).join('\n\n')}\n`;
