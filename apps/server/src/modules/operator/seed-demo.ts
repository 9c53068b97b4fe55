// Fills an empty database with realistic demo data for trying the product: riders in
// every state, staff of every role, fires, comments, announcements, kit hand-overs,
// sticker prints and the activity they would have produced.
import { randomBytes } from 'node:crypto';
import { type Category, type PaymentMethod, paymentAmountFor, type Role, SIZES } from '@rally/shared/catalog';
import type { Db } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { announcements } from '../../db/schema/announcements';
import { files } from '../../db/schema/files';
import { idCardPrints, kitTracking } from '../../db/schema/kit';
import { loginActivities } from '../../db/schema/security';
import { comments, fires } from '../../db/schema/social';
import { users } from '../../db/schema/users';
import { verificationHistory, verifications } from '../../db/schema/verifications';
import { bytesParam } from '../../lib/file-bytes';
import { hashPassword } from '../../lib/passwords';
import { isRider } from '../../lib/riders';
import { onlyRow } from '../../lib/sql-text';
import { newRiderCode, newVerificationCode, sha256Hex } from '../../lib/tokens';
import { seedEventDay } from './seed-event-day';

const FIRST = [
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
const COMMENTS = [
  'Ride safe, warrior! See you at the Marilog checkpoint.',
  'Bagani loop is no joke — you got this! 🔥',
  'Salamat for the help with my chain at the last ride.',
  'Let us ride together on the Bukidnon stretch!',
  'Legend. Your setup is clean.',
  'Padayon, kapatid! Mindanao pride!',
  'Hydrate and rest well before the start.',
  'Your first endurance rally? You will love it.',
];
// The admin signs off the demo's verifications, kit hand-overs and announcements.
const ADMIN: [Role, string, string] = ['admin', 'Rajah', 'Sulayman'];
const OTHER_STAFF: Array<[Role, string, string]> = [
  ['marshall', 'Lapu', 'Kalipay'],
  ['officer', 'Maria', 'Makiling'],
  ['developer', 'Dev', 'Bayanihan'],
];

function pick<T>(list: readonly T[], i: number): T {
  const item = list[i % list.length];
  if (item === undefined) throw new Error('pick() needs a non-empty list');
  return item;
}

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

function daysAgo(days: number, hours = 0): Date {
  return new Date(Date.now() - days * 86_400_000 - hours * 3_600_000);
}

export async function seedDemo(db: Db): Promise<string> {
  const existing = await db.select({ id: users.id }).from(users).where(isRider).limit(1);
  if (existing.length > 0) {
    return 'The database already has riders; seed-demo only fills an empty database. Nothing was changed.';
  }
  // One random password for every demo account, printed once: no default password exists.
  const password = `Demo-${randomBytes(6).toString('base64url')}9a`;
  const passwordHash = await hashPassword(password);
  const categories: Category[] = [
    'bagani',
    'lakan',
    'lakambini',
    'magani',
    'bagani-obr',
    'lakan-obr',
    'lakambini-obr',
    'magani-obr',
  ];
  const methods: PaymentMethod[] = ['gcash', 'bank_transfer', 'cash'];

  const lines: string[] = [];
  await db.transaction(async (tx) => {
    const insertStaff = async ([role, firstName, lastName]: [Role, string, string]) => {
      const email = `${role}@demo.rally.ph`;
      const u = onlyRow(
        await tx
          .insert(users)
          .values({ email, passwordHash, firstName, lastName, role, riderCode: newRiderCode(), createdAt: daysAgo(60) })
          .returning({ id: users.id }),
      );
      await tx.insert(verifications).values({
        userId: u.id,
        verificationCode: newVerificationCode(),
        status: 'verified',
        verifiedAt: daysAgo(60),
        notes: 'Demo staff account',
      });
      lines.push(`  ${role.padEnd(10)} ${email}`);
      return u.id;
    };
    const adminId = await insertStaff(ADMIN);
    for (const staff of OTHER_STAFF) await insertStaff(staff);

    const riderIds: string[] = [];
    const verified: string[] = [];
    for (const [i, [firstName, gender]] of FIRST.entries()) {
      const lastName = pick(LAST, i * 7 + 3);
      let category = pick(categories, i);
      if (gender === 'female' && category.startsWith('magani'))
        category = category.replace('magani', 'lakambini') as Category;
      if (gender === 'male' && category.startsWith('lakambini'))
        category = category.replace('lakambini', 'magani') as Category;
      const method = pick(methods, i);
      const amount = paymentAmountFor(category);
      const state = i % 10 < 6 ? 'verified' : i % 10 < 9 ? 'pending' : 'rejected';
      const created = daysAgo(30 - i * 0.8, i);
      const town = pick(TOWNS, i);
      const size = (k: number) => SIZES[(i + k) % 7];
      const u = onlyRow(
        await tx
          .insert(users)
          .values({
            email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@demo.rally.ph`,
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
            category,
            emergencyContactName: `${pick(FIRST, i + 5)[0]} ${lastName}`,
            emergencyContactNumber: `0918${String(2000000 + i * 4421).slice(-7)}`,
            riderNumber: [
              7, 13, 21, 42, 69, 88, 99, 101, 111, 123, 150, 177, 200, 222, 250, 300, 333, 360, 404, 420, 450, 500, 555,
              600, 666, 700, 777, 808, 850, 888, 900, 999,
            ][i],
            riderCode: state === 'verified' ? newRiderCode() : null,
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
            lastLogin: daysAgo(i % 6, i),
            createdAt: created,
            updatedAt: created,
          })
          .returning({ id: users.id }),
      );
      riderIds.push(u.id);
      const code = newVerificationCode();
      const v = onlyRow(
        await tx
          .insert(verifications)
          .values({
            userId: u.id,
            verificationCode: code,
            status: state,
            paymentMethod: method,
            paymentAmount: amount,
            verifiedBy: state === 'pending' ? null : adminId,
            verifiedAt: state === 'pending' ? null : daysAgo(20 - i * 0.5),
            notes: state === 'rejected' ? 'Receipt amount does not match the category price' : null,
            createdAt: created,
          })
          .returning({ id: verifications.id }),
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
      await tx.insert(activities).values({
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
        email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@demo.rally.ph`,
        success: i % 7 !== 0,
        failureReason: i % 7 !== 0 ? null : 'wrong_password',
        ip: `192.0.2.${i + 10}`,
        userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
        createdAt: daysAgo(i % 6, i),
      });
    }

    // Fires and support comments among verified riders.
    for (const [a, giver] of verified.entries()) {
      for (let k = 1; k <= (a % 4) + 1; k++) {
        const receiver = pick(verified, a + k * 3);
        if (receiver === giver) continue;
        await tx
          .insert(fires)
          .values({ giverId: giver, receiverId: receiver, createdAt: daysAgo(k, a) })
          .onConflictDoNothing();
      }
      const target = pick(verified, a + 1);
      if (target !== giver) {
        await tx.insert(comments).values({
          authorId: giver,
          targetUserId: target,
          text: pick(COMMENTS, a),
          createdAt: daysAgo(a % 9, a),
        });
      }
    }

    // Kit hand-overs and sticker prints for the first verified riders.
    for (const [i, riderId] of verified.entries()) {
      const given = i % 4;
      await tx.insert(kitTracking).values({
        userId: riderId,
        tshirtGiven: given >= 1,
        tshirtGivenAt: given >= 1 ? daysAgo(3) : null,
        tshirtGivenBy: given >= 1 ? adminId : null,
        vestGiven: given >= 2,
        vestGivenAt: given >= 2 ? daysAgo(2) : null,
        vestGivenBy: given >= 2 ? adminId : null,
        finisherSleeveGiven: given >= 3,
        finisherSleeveGivenAt: given >= 3 ? daysAgo(1) : null,
        finisherSleeveGivenBy: given >= 3 ? adminId : null,
        notes: i % 5 === 0 ? 'Asked for a bigger vest if stock allows' : null,
        updatedBy: adminId,
      });
      if (i % 3 === 0) {
        await tx.insert(idCardPrints).values({ userId: riderId, printedBy: adminId, printedAt: daysAgo(2) });
        if (i % 6 === 0)
          await tx
            .insert(idCardPrints)
            .values({ userId: riderId, printedBy: adminId, printedAt: daysAgo(1), notes: 'Reprint: smudged' });
      }
    }

    await tx.insert(announcements).values([
      {
        title: 'Kit claiming starts Friday',
        content:
          'Claim your rally kit at the Davao City staging area, 9 AM to 6 PM. Bring a valid ID and your rider code.',
        authorId: adminId,
        createdAt: daysAgo(2),
      },
      {
        title: 'Mandatory riders briefing',
        content: 'All warriors must attend the safety briefing on the eve of the flag-off, 7 PM at the staging area.',
        authorId: adminId,
        createdAt: daysAgo(1),
      },
      {
        title: 'Draft: route reveal',
        content: 'Final coordinates will be released once the trail masters finish the last survey.',
        authorId: adminId,
        isActive: false,
        createdAt: daysAgo(0, 5),
      },
    ]);
    await tx.insert(activities).values([
      {
        type: 'sos_call',
        priority: 'high',
        userId: riderIds[2],
        userName: `${FIRST[2][0]} ${pick(LAST, 17)}`,
        description: 'SOS: flat tyre near Marilog, rider safe',
        location: 'Marilog',
        createdAt: daysAgo(0, 3),
      },
      {
        type: 'checkpoint_scan',
        priority: 'low',
        userId: riderIds[0],
        userName: `${FIRST[0][0]} ${pick(LAST, 3)}`,
        description: 'Scanned at Calinan checkpoint',
        location: 'Calinan',
        createdAt: daysAgo(0, 2),
      },
    ]);
  });
  return [
    `Seeded ${FIRST.length} demo riders (verified, pending, rejected), 4 staff accounts, fires, comments, announcements, kits and prints.`,
    'Staff accounts:',
    ...lines,
    `Riders log in as firstname.lastname@demo.rally.ph (e.g. ${FIRST[0][0].toLowerCase()}.${pick(LAST, 3).toLowerCase()}@demo.rally.ph).`,
    `Password for every demo account: ${password}`,
    await seedEventDay(db),
  ].join('\n');
}
