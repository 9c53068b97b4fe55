import { describe, expect, it } from 'vitest';
import { linesFromText, parseReceiptText, type RecognisedLine } from './receipt-text';

// Mar 12, 2026 2:31 PM in Manila is 06:31 UTC.
const MAR_12_231_PM = new Date('2026-03-12T06:31:00Z');

const GCASH = `GCash
Express Send
Sent via GCash
JU** DE* C.
+63 917 *** 4321
Amount 1,500.00
Total Amount Sent ₱1,500.00
Ref No. 1001 543 610110 Mar 12, 2026 2:31 PM
Transaction completed`;

describe('parseReceiptText: GCash receipts', () => {
  it('reads every field of a clean GCash receipt', () => {
    const r = parseReceiptText(GCASH);
    expect(r.referenceNumber).toBe('1001543610110');
    expect(r.amountCentavos).toBe(150_000);
    expect(r.paidAt?.toISOString()).toBe(MAR_12_231_PM.toISOString());
    expect(r.recipient).toBe('JU** DE* C. / +63 917 *** 4321');
    expect(r.confidence.referenceNumber).toBe(0.9);
    expect(r.confidence.amount).toBe(0.9);
    expect(r.confidence.paidAt).toBe(0.9);
  });

  it('corrects letters read for digits inside the reference, and says it was less sure', () => {
    const r = parseReceiptText(GCASH.replace('1001 543 610110', 'l0O1 S43 6l0ll0'));
    expect(r.referenceNumber).toBe('1001543610110');
    expect(r.confidence.referenceNumber).toBeLessThan(0.9);
    expect(r.confidence.referenceNumber).toBeGreaterThan(0);
  });

  it('reads a reference printed with dashes or without spaces', () => {
    expect(parseReceiptText(GCASH.replace('1001 543 610110', '1001-543-610110')).referenceNumber).toBe('1001543610110');
    expect(parseReceiptText(GCASH.replace('1001 543 610110', '1001543610110')).referenceNumber).toBe('1001543610110');
  });

  it('reads the usual slips in the label: "Ret No,", "RefNo.", "Ref No:"', () => {
    for (const label of ['Ret No,', 'RefNo.', 'Ref No:', 'Ref. No.', 'Reference No.'])
      expect(parseReceiptText(GCASH.replace('Ref No.', label)).referenceNumber, label).toBe('1001543610110');
  });

  it('keeps the reference apart from the date on its line, even with the month misread', () => {
    const r = parseReceiptText(GCASH.replace('Mar 12, 2026', 'Mar 12,2026'));
    expect(r.referenceNumber).toBe('1001543610110');
    expect(r.paidAt?.toISOString()).toBe(MAR_12_231_PM.toISOString());
  });

  it('takes the 13 digits GCash prints when the date runs into them, less surely', () => {
    const r = parseReceiptText(GCASH.replace('610110 Mar 12, 2026', '610110 12 Mar 2026,'));
    expect(r.referenceNumber).toBe('1001543610110');
    expect(r.confidence.referenceNumber).toBeLessThan(0.6);
  });

  it('finds the reference on the line under its label (a column laid out apart)', () => {
    const r = parseReceiptText('Sent via GCash\nRef No.\n1001 543 610110\nMar 12, 2026 2:31 PM');
    expect(r.referenceNumber).toBe('1001543610110');
  });

  it('finds a 4-3-6 number without a label, less surely', () => {
    const r = parseReceiptText('Sent via GCash\n1001 543 610110\nAmount 500.00');
    expect(r.referenceNumber).toBe('1001543610110');
    expect(r.confidence.referenceNumber).toBeLessThan(0.9);
  });

  it('reports a short reference with a low confidence rather than inventing digits', () => {
    const r = parseReceiptText(GCASH.replace('1001 543 610110', '1001 543 61011'));
    expect(r.referenceNumber).toBe('100154361011');
    expect(r.confidence.referenceNumber).toBeLessThan(0.5);
  });

  it('reads the amount whatever the peso sign became ("P", "$", "F", "B")', () => {
    for (const sign of ['P', '$', 'F', 'B', '₱ ', 'PHP '])
      expect(parseReceiptText(GCASH.replace('₱1,500.00', `${sign}1,500.00`)).amountCentavos, sign).toBe(150_000);
  });

  it('reads an amount with a comma read as a dot, or letters for digits', () => {
    expect(parseReceiptText('Sent via GCash\nTotal Amount Sent ₱1.500.00').amountCentavos).toBe(150_000);
    expect(parseReceiptText('Sent via GCash\nAmount 1,5O0.00').amountCentavos).toBe(150_000);
    expect(parseReceiptText('Sent via GCash\nAmount 12,345.67').amountCentavos).toBe(1_234_567);
    expect(parseReceiptText('Sent via GCash\nAmount 750.50').amountCentavos).toBe(75_050);
  });

  it('is less sure of an amount when its two printings disagree', () => {
    const r = parseReceiptText(GCASH.replace('₱1,500.00', '₱1,600.00'));
    expect(r.amountCentavos === 150_000 || r.amountCentavos === 160_000).toBe(true);
    expect(r.confidence.amount).toBeLessThan(0.6);
  });

  it('reads midnight and noon in 12-hour time, in Manila time', () => {
    expect(parseReceiptText('Mar 12, 2026 12:05 AM').paidAt?.toISOString()).toBe('2026-03-11T16:05:00.000Z');
    expect(parseReceiptText('Mar 12, 2026 12:05 PM').paidAt?.toISOString()).toBe('2026-03-12T04:05:00.000Z');
    expect(parseReceiptText('Mar 12, 2026 11:59 PM').paidAt?.toISOString()).toBe('2026-03-12T15:59:00.000Z');
  });

  it('reads a date whose comma was read as a dot', () => {
    expect(parseReceiptText('Ref No. 1001 543 610110 Mar 12. 2026 2:31 PM').paidAt?.toISOString()).toBe(
      MAR_12_231_PM.toISOString(),
    );
  });

  it('rejects a date that does not exist', () => {
    expect(parseReceiptText('Feb 30, 2026 2:31 PM').paidAt).toBeNull();
    expect(parseReceiptText('Mar 12, 2026 25:31').paidAt).toBeNull();
  });

  it('reads a masked name alone, or a masked number alone', () => {
    expect(parseReceiptText('Sent via GCash\nJUAN D*** C.\nAmount 1.00').recipient).toBe('JUAN D*** C.');
    expect(parseReceiptText('Sent via GCash\nJu** DE* C.').recipient).toBe('JU** DE* C.');
    expect(parseReceiptText('Sent via GCash\n+63 917 *** 4321').recipient).toBe('+63 917 *** 4321');
    expect(parseReceiptText('Sent via GCash\n0917 *** 4321').recipient).toBe('0917 *** 4321');
    expect(parseReceiptText('Sent via GCash\n+63 917 *+ 4321').recipient).toBe('+63 917 *** 4321');
  });

  it('finds nothing in text that is not a receipt, and says so with nulls', () => {
    const r = parseReceiptText('Hello there\nThis is a photo of a motorcycle');
    expect(r).toEqual({
      referenceNumber: null,
      amountCentavos: null,
      paidAt: null,
      recipient: null,
      confidence: { referenceNumber: null, amount: null, paidAt: null, recipient: null },
    });
    expect(parseReceiptText('').referenceNumber).toBeNull();
  });
});

describe('parseReceiptText: bank transfer receipts', () => {
  const BPI = `BPI
Transfer successful
PHP 2,750.22
Transfer to KL*** TJ* E.
Account number **** **** 6166
Amount PHP 2,750.22
Service fee PHP 0.00
Reference No. 67822092934
Date 22 Jul 2026, 02:15 PM`;

  it('reads a BPI-style confirmation: any length of reference, PHP amount, day-first date', () => {
    const r = parseReceiptText(BPI);
    expect(r.referenceNumber).toBe('67822092934');
    expect(r.amountCentavos).toBe(275_022);
    expect(r.paidAt?.toISOString()).toBe('2026-07-22T06:15:00.000Z');
    expect(r.recipient).toBe('KL*** TJ* E.');
  });

  it('reads "Ref. No.", "Transaction ID" and "Reference Number" labels', () => {
    for (const label of ['Ref. No.', 'Transaction ID', 'Reference Number', 'Transaction No.'])
      expect(parseReceiptText(BPI.replace('Reference No.', label)).referenceNumber, label).toBe('67822092934');
  });

  it('never takes the service fee for the amount', () => {
    expect(parseReceiptText('BDO\nService fee PHP 15.00\nAmount PHP 500.00').amountCentavos).toBe(50_000);
  });

  it('reads a month-first numeric date with a 24-hour time', () => {
    expect(parseReceiptText('Date 03/12/2026 14:31').paidAt?.toISOString()).toBe(MAR_12_231_PM.toISOString());
  });

  it('does not take a phone or account number for a reference', () => {
    const r = parseReceiptText('UnionBank\nAccount number **** **** 6166\nAmount PHP 100.00');
    expect(r.referenceNumber).toBeNull();
  });
});

describe('parseReceiptText: confidences from the words', () => {
  it('takes the lowest confidence of the words a field was read from', () => {
    const lines: RecognisedLine[] = [
      [
        { text: 'Sent', confidence: 95 },
        { text: 'via', confidence: 95 },
        { text: 'GCash', confidence: 95 },
      ],
      [
        { text: 'Ref', confidence: 92 },
        { text: 'No.', confidence: 91 },
        { text: '1001', confidence: 96 },
        { text: '543', confidence: 61 },
        { text: '610110', confidence: 93 },
        { text: 'Mar', confidence: 90 },
        { text: '12,', confidence: 88 },
        { text: '2026', confidence: 97 },
        { text: '2:31', confidence: 80 },
        { text: 'PM', confidence: 94 },
      ],
      [
        { text: 'Amount', confidence: 96 },
        { text: '1,500.00', confidence: 72 },
      ],
    ];
    const r = parseReceiptText(lines);
    expect(r.referenceNumber).toBe('1001543610110');
    expect(r.confidence.referenceNumber).toBe(0.61);
    expect(r.confidence.paidAt).toBe(0.8);
    expect(r.confidence.amount).toBe(0.72);
  });

  it('splits plain text into lines of words', () => {
    expect(linesFromText('a b\n\n c ', 50)).toEqual([
      [
        { text: 'a', confidence: 50 },
        { text: 'b', confidence: 50 },
      ],
      [{ text: 'c', confidence: 50 }],
    ]);
  });
});

describe('parseReceiptText: a tilted line split in two', () => {
  it('takes a number standing alone on the line before or after its label', () => {
    const bank = 'Metrobank\nService fee PHP 0.00\n30005270803641\nReference No.\nDate 11/12/2026 16:38';
    expect(parseReceiptText(bank).referenceNumber).toBe('30005270803641');
    expect(parseReceiptText('BPI\nReference No.\n961898710393\nDate 02/01/2026 23:58').referenceNumber).toBe(
      '961898710393',
    );
  });

  it('never takes an amount standing alone for the reference', () => {
    expect(parseReceiptText('BPI\n1,500.00\nReference No.\nDate 02/01/2026 23:58').referenceNumber).toBeNull();
  });

  it('lets two readings of one receipt outvote a slip in the amount', () => {
    const first = 'Sent via GCash\nAmount 1,360.00\nTotal Amount Sent P1,300.00';
    const second = 'Sent via GCash\nAmount 1,300.00\nTotal Amount Sent P1,300.00';
    expect(parseReceiptText([...linesFromText(first), ...linesFromText(second)]).amountCentavos).toBe(130_000);
  });
});
