// Demo accounts: staff of every role, and riders in every verification state with their
// photos, receipts, registration activity and sign-ins.

import { randomBytes } from 'node:crypto';
import type { Role } from '@rally/shared/catalog/accounts';
import {
  type Category,
  normaliseCategory,
  type PaymentMethod,
  paymentAmountFor,
  SIZES,
} from '@rally/shared/catalog/registration';
import type { Tx } from '../../db/client';
import { entries, verificationHistory } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { loginActivities } from '../../db/schema/security';
import { users } from '../../db/schema/users';
import { bytesParam } from '../../lib/file-bytes';
import { onlyRow } from '../../lib/sql-text';
import { newRiderCode, newVerificationCode, sha256Hex } from '../../lib/tokens';
import { recordActivity } from '../activities/activities.service';
import { daysAgo, pick } from './seed-demo-helpers';

export const FIRST = [
  ['Datu', 'male'],
  ['Amihan', 'female'],
  ['Rajah', 'male'],
  ['Liwayway', 'female'],
  ['Bagwis', 'male'],
  ['Mayumi', 'female'],
  ['Kidlat', 'male'],
  ['Tala', 'female'],
  ['Lakandula', 'male'],
  ['Diwata', 'female'],
  ['Bayani', 'male'],
  ['Hiraya', 'female'],
  ['Makisig', 'male'],
  ['Dalisay', 'female'],
  ['Magiting', 'male'],
  ['Marikit', 'female'],
  ['Dakila', 'male'],
  ['Ligaya', 'female'],
  ['Tapang', 'male'],
  ['Sinag', 'female'],
  ['Agila', 'male'],
  ['Luningning', 'female'],
  ['Banoy', 'male'],
  ['Alon', 'female'],
  ['Sulo', 'male'],
  ['Bituin', 'female'],
  ['Kalayaan', 'male'],
  ['Ulap', 'female'],
  ['Lakas', 'male'],
  ['Himig', 'female'],
  ['Habagat', 'male'],
  ['Silay', 'female'],
] as const;
const LAST = [
  'Mangubat',
  'Dimaporo',
  'Sultan',
  'Alonto',
  'Macaraeg',
  'Lumbatan',
  'Pendatun',
  'Ampatuan',
  'Sinsuat',
  'Tomawis',
  'Maglangit',
  'Bangcola',
];
const TOWNS = [
  'Davao City',
  'Tagum City',
  'General Santos',
  'Cagayan de Oro',
  'Koronadal',
  'Malaybalay',
  'Digos',
  'Panabo',
  'Mati',
  'Kidapawan',
  'Iligan',
  'Butuan',
];
const BIKES = [
  'Honda ADV 160',
  'Yamaha NMAX 155',
  'Kawasaki Versys 650',
  'Honda XR150L',
  'Suzuki V-Strom 250',
  'Yamaha XSR155',
  'KTM 390 Adventure',
  'Honda CB500X',
  'Rusi Titan 250',
  'Kawasaki KLX 150',
  'BMW G 310 GS',
  'Royal Enfield Himalayan',
];
const CLUBS = [
  'Davao Adventure Riders',
  'Mindanao Tourers',
  'Southern Throttle Club',
  'Bukidnon Highlanders MC',
  null,
  'GenSan Road Warriors',
  null,
  'CDO Dual Sport Crew',
];
// The admin signs off the demo's verifications, kit hand-overs and announcements.
export const ADMIN: [Role, string, string] = ['admin', 'Rajah', 'Sulayman'];
export const OTHER_STAFF: Array<[Role, string, string]> = [
  ['marshall', 'Lapu', 'Kalipay'],
  ['officer', 'Maria', 'Makiling'],
  ['developer', 'Dev', 'Bayanihan'],
];

const CATEGORIES: Category[] = [
  'bagani',
  'lakan',
  'lakambini',
  'magani',
  'bagani-obr',
  'lakan-obr',
  'lakambini-obr',
  'magani-obr',
];
const METHODS: PaymentMethod[] = ['gcash', 'bank_transfer', 'cash'];

async function avatar(initials: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="hsl(${hue},70%,38%)"/><text x="128" y="160" font-family="sans-serif" font-size="110" font-weight="bold" text-anchor="middle" fill="#fff">${initials}</text></svg>`;
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function receipt(name: string, amount: number, method: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640"><rect width="480" height="640" fill="#f8fafc"/><rect x="0" y="0" width="480" height="90" fill="${method === 'gcash' ? '#0a5bd8' : '#1f2937'}"/><text x="24" y="58" font-family="sans-serif" font-size="34" font-weight="bold" fill="#fff">${method === 'gcash' ? 'GCash' : 'Bank Transfer'}</text><text x="24" y="170" font-family="sans-serif" font-size="22" fill="#111">Sent to: Mindanao Warriors Riders Club</text><text x="24" y="220" font-family="sans-serif" font-size="22" fill="#111">From: ${name}</text><text x="24" y="300" font-family="sans-serif" font-size="44" font-weight="bold" fill="#111">PHP ${amount.toFixed(2)}</text><text x="24" y="360" font-family="sans-serif" font-size="18" fill="#555">Ref No. ${randomBytes(5).toString('hex').toUpperCase()}</text></svg>`;
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** Inserts one verified staff account; returns its id and the line the CLI prints for it. */
export async function seedStaff(
  tx: Tx,
  passwordHash: string,
  [role, firstName, lastName]: [Role, string, string],
): Promise<{ id: string; line: string }> {
  const email = `${role}@demo.rally.ph`;
  const u = onlyRow(
    await tx
      .insert(users)
      .values({ email, passwordHash, firstName, lastName, role, createdAt: daysAgo(60) })
      .returning({ id: users.id }),
  );
  await tx.insert(entries).values({
    userId: u.id,
    verificationCode: newVerificationCode(),
    riderCode: newRiderCode(),
    status: 'verified',
    verifiedAt: daysAgo(60),
    notes: 'Demo staff account',
  });
  return { id: u.id, line: `  ${role.padEnd(10)} ${email}` };
}

export interface SeededRider {
  id: string;
  name: string;
  email: string;
}

/** Every demo rider, in FIRST's order; `verified` holds the ids of the verified ones. */
export async function seedRiders(
  tx: Tx,
  passwordHash: string,
  adminId: string,
): Promise<{ riders: SeededRider[]; verified: string[] }> {
  const riders: SeededRider[] = [];
  const verified: string[] = [];
  for (const [i, [firstName, gender]] of FIRST.entries()) {
    const lastName = pick(LAST, i * 7 + 3);
    const email = `${firstName.toLowerCase()}.${lastName.toLowerCase()}@demo.rally.ph`;
    // The product's own rule: a man choosing the women's track rides magani.
    const category = normaliseCategory(pick(CATEGORIES, i), gender);
    const method = pick(METHODS, i);
    const amount = paymentAmountFor(category);
    const state = i % 10 < 6 ? 'verified' : i % 10 < 9 ? 'pending' : 'rejected';
    const created = daysAgo(30 - i * 0.8, i);
    const town = pick(TOWNS, i);
    const size = (k: number) => SIZES[(i + k) % 7];
    const u = onlyRow(
      await tx
        .insert(users)
        .values({
          email,
          passwordHash,
          firstName,
          lastName,
          kitName: i % 4 === 3 ? null : `${firstName.toUpperCase()} ${i % 2 ? 'THE BOLD' : 'OF THE SOUTH'}`,
          phoneNumber: `0917${String(1000000 + i * 7919).slice(-7)}`,
          address: `${town}, Mindanao`,
          gender,
          birthdate: `${1975 + (i % 25)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
          role: i === 5 ? 'guest' : 'participant',
          status: i === 13 ? 'inactive' : 'active',
          motorcycleModel: pick(BIKES, i),
          clubName: pick(CLUBS, i),
          emergencyContactName: `${pick(FIRST, i + 5)[0]} ${lastName}`,
          emergencyContactNumber: `0918${String(2000000 + i * 4421).slice(-7)}`,
          lastLogin: daysAgo(i % 6, i),
          createdAt: created,
          updatedAt: created,
        })
        .returning({ id: users.id }),
    );
    riders.push({ id: u.id, name: `${firstName} ${lastName}`, email });
    const code = newVerificationCode();
    const v = onlyRow(
      await tx
        .insert(entries)
        .values({
          userId: u.id,
          verificationCode: code,
          status: state,
          riderNumber: [
            7, 13, 21, 42, 69, 88, 99, 101, 111, 123, 150, 177, 200, 222, 250, 300, 333, 360, 404, 420, 450, 500, 555,
            600, 666, 700, 777, 808, 850, 888, 900, 999,
          ][i],
          riderCode: state === 'verified' ? newRiderCode() : null,
          category,
          paymentMethod: method,
          paymentAmount: amount,
          tshirtSize: size(0),
          tshirtSubmittedAt: created,
          finisherSleeveSize: i % 9 === 4 ? 'CUSTOM' : size(1),
          customFinisherSleeveSize: i % 9 === 4 ? 'XL, extra long arms' : null,
          vestSize: size(2),
          gearSubmittedAt: created,
          bikeCheckStatus: state === 'verified' ? pick(['Ready', 'Preparing', 'Not Started'], i) : 'Not Started',
          checkpoints: state === 'verified' ? i % 5 : 0,
          verifiedBy: state === 'pending' ? null : adminId,
          verifiedAt: state === 'pending' ? null : daysAgo(20 - i * 0.5),
          notes: state === 'rejected' ? 'Receipt amount does not match the category price' : null,
          createdAt: created,
        })
        .returning({ id: entries.id }),
    );
    await tx.insert(files).values({
      userId: u.id,
      kind: 'profile_image',
      mimeType: 'image/jpeg',
      ...(await (async () => {
        const data = await avatar(`${firstName[0]}${lastName[0]}`, (i * 37) % 360);
        return { data: bytesParam(data), sizeBytes: data.length, sha256: sha256Hex(data), width: 256, height: 256 };
      })()),
    });
    if (method !== 'cash') {
      const data = await receipt(`${firstName} ${lastName}`, amount, method);
      await tx.insert(files).values({
        userId: u.id,
        kind: 'payment_receipt',
        mimeType: 'image/jpeg',
        data: bytesParam(data),
        sizeBytes: data.length,
        sha256: sha256Hex(data),
        width: 480,
        height: 640,
      });
    }
    await recordActivity(tx, {
      type: 'user_registration',
      userId: u.id,
      userName: `${firstName} ${lastName}`,
      description: `${firstName} ${lastName} registered for ${category.toUpperCase()}`,
      location: town,
      createdAt: created,
    });
    if (state !== 'pending') {
      await tx.insert(verificationHistory).values({
        verificationId: v.id,
        userId: u.id,
        userFirstName: firstName,
        userLastName: lastName,
        verificationCode: code,
        action: state,
        adminId,
        adminFirstName: ADMIN[1],
        adminLastName: ADMIN[2],
        notes: state === 'rejected' ? 'Receipt amount does not match the category price' : 'Payment confirmed',
        createdAt: daysAgo(20 - i * 0.5),
      });
    }
    if (state === 'verified') verified.push(u.id);
    await tx.insert(loginActivities).values({
      userId: u.id,
      email,
      success: i % 7 !== 0,
      failureReason: i % 7 !== 0 ? null : 'wrong_password',
      ip: `192.0.2.${i + 10}`,
      userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
      createdAt: daysAgo(i % 6, i),
    });
  }
  return { riders, verified };
}
