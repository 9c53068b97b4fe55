// What each message says. One rendering serves every channel: the email's subject and
// body, the push notification's title and body (a tap opens `url`), the SMS text (the
// text and the link). Values come from the row's data, fixed when the event happened.
import type { MessageTemplate } from '@rally/shared/catalog/messages';

export interface RenderedMessage {
  /** Email subject, push title. */
  subject: string;
  /** Plain text: the email's text part, the push body, the SMS. */
  text: string;
  /** Where a tap or a link leads (absolute). */
  url: string | null;
  /** Safety messages: push marks them urgent, email sends them without List-Unsubscribe. */
  urgent: boolean;
  /** Push: a newer notification with the same tag replaces the older one on the phone. */
  tag: string;
}

type Data = Record<string, unknown>;
const str = (data: Data, key: string, fallback = '') => {
  const v = data[key];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : fallback;
};
/** "#42 ANG MANDIRIGMA": the rider by number and kit name, as every alert names them. */
export const riderLabel = (data: Data) => {
  const number = str(data, 'riderNumber');
  const name = str(data, 'kitName') || str(data, 'riderName') || 'a rider';
  return number ? `#${number} ${name}` : name;
};

const RENDER: Record<MessageTemplate, (data: Data, base: string) => RenderedMessage> = {
  registration_received: (d, base) => ({
    subject: 'Registration received',
    text: `Salamat, ${str(d, 'firstName', 'warrior')}! Your registration is in. Verification code: ${str(d, 'verificationCode')}. Staff will check your payment; we will tell you when you are verified.`,
    url: `${base}/verify`,
    urgent: false,
    tag: 'registration',
  }),
  verified: (d, base) => ({
    subject: 'You are verified, warrior',
    text: `${str(d, 'firstName', 'Warrior')}, you are verified${str(d, 'riderNumber') ? ` as rider #${str(d, 'riderNumber')}` : ''}. Your rider pass and QR code: ${base}/me`,
    url: `${base}/me`,
    urgent: false,
    tag: 'verification',
  }),
  rejected: (d, base) => ({
    subject: 'Your registration needs a new receipt',
    text: `${str(d, 'firstName', 'Warrior')}, your payment could not be verified: ${str(d, 'reason', 'no reason given')}. Upload a new receipt: ${base}/verify`,
    url: `${base}/verify`,
    urgent: false,
    tag: 'verification',
  }),
  sos_acknowledged: (d, base) => ({
    subject: 'Your SOS was received',
    text: `Help is coming: ${str(d, 'staffName', 'staff')} ${str(d, 'status') === 'assigned' ? 'is assigned to' : 'acknowledged'} your SOS. Stay where you are if you can.`,
    url: `${base}/me`,
    urgent: true,
    tag: `incident-${str(d, 'incidentId')}`,
  }),
  dnf_decided: (d, base) => ({
    subject: 'You are out of the rally',
    text: `${str(d, 'firstName', 'Warrior')}, the race officials recorded you as DNF${str(d, 'reason') ? ` (${str(d, 'reason')})` : ''}. Ride safe; call the hotline if you need help.`,
    url: `${base}/me`,
    urgent: false,
    tag: 'course',
  }),
  incident_opened: (d, base) => ({
    subject: `SOS ${riderLabel(d)}: ${str(d, 'kindLabel', 'Other')}`,
    text: `SOS ${riderLabel(d)}: ${str(d, 'kindLabel', 'Other')}. Last passed: ${str(d, 'lastStation', 'no station yet')}.${str(d, 'note') ? ` "${str(d, 'note')}"` : ''}`,
    url: `${base}/admin?tab=event-day&incident=${str(d, 'incidentId')}`,
    urgent: true,
    tag: `incident-${str(d, 'incidentId')}`,
  }),
  incident_escalated: (d, base) => ({
    subject: `UNANSWERED SOS ${riderLabel(d)}`,
    text: `UNANSWERED SOS ${riderLabel(d)}: ${str(d, 'kindLabel', 'Other')}, ${str(d, 'minutes', '2')} min without acknowledgement. Last passed: ${str(d, 'lastStation', 'no station yet')}. ${base}/admin?tab=event-day&incident=${str(d, 'incidentId')}`,
    url: `${base}/admin?tab=event-day&incident=${str(d, 'incidentId')}`,
    urgent: true,
    tag: `incident-${str(d, 'incidentId')}`,
  }),
  follow_confirm: (d, base) => ({
    subject: `Confirm: follow ${str(d, 'riderName', 'a rider')}`,
    text: `You asked to follow ${str(d, 'riderName', 'a rider')} in the rally. Confirm here: ${base}/follow/confirm?token=${str(d, 'token')} (ignore this email if it was not you).`,
    url: `${base}/follow/confirm?token=${str(d, 'token')}`,
    urgent: false,
    tag: 'follow',
  }),
  follower_passage: (d, base) => ({
    subject: `${riderLabel(d)} passed ${str(d, 'stationName')}`,
    text: `${riderLabel(d)} passed ${str(d, 'stationName')} at ${str(d, 'time')}.`,
    url: `${base}/user/${str(d, 'riderId')}`,
    urgent: false,
    tag: `follow-${str(d, 'riderId')}`,
  }),
  follower_finish: (d, base) => ({
    subject: `${riderLabel(d)} finished!`,
    text: `${riderLabel(d)} crossed the finish${str(d, 'elapsed') ? ` in ${str(d, 'elapsed')}` : ''}. Mabuhay, warrior!`,
    url: `${base}/user/${str(d, 'riderId')}`,
    urgent: false,
    tag: `follow-${str(d, 'riderId')}`,
  }),
  follower_out: (d, base) => ({
    subject: `${riderLabel(d)} is out of the rally`,
    text: `${riderLabel(d)} is out of the rally. The organisers are in touch with the rider.`,
    url: `${base}/user/${str(d, 'riderId')}`,
    urgent: false,
    tag: `follow-${str(d, 'riderId')}`,
  }),
  sms_reply: (d) => ({
    subject: 'Rally',
    text: str(d, 'text'),
    url: null,
    urgent: false,
    tag: 'sms',
  }),
  test_message: (d, base) => ({
    subject: 'Test message from the Command Center',
    text: `This is a test message sent by ${str(d, 'staffName', 'staff')} from the Command Center. If you got it, this channel works.`,
    url: `${base}/admin?tab=settings`,
    urgent: false,
    tag: 'test',
  }),
};

export function renderMessage(template: MessageTemplate, data: Data, publicUrl: string): RenderedMessage {
  return RENDER[template](data, publicUrl.replace(/\/+$/, ''));
}
