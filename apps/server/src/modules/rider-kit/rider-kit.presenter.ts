import type { GearSizes, TshirtStatus } from '@rally/shared/contracts/rider-kit';

interface SizeRow {
  tshirtSize: string | null;
  customTshirtSize: string | null;
  tshirtSubmittedAt: Date | null;
  finisherSleeveSize: string | null;
  customFinisherSleeveSize: string | null;
  vestSize: string | null;
  customVestSize: string | null;
  gearSubmittedAt: Date | null;
}

export function presentTshirtStatus(row: SizeRow): TshirtStatus {
  return { hasSubmitted: row.tshirtSubmittedAt !== null, size: row.tshirtSize, customSize: row.customTshirtSize };
}

export function presentGearSizes(row: SizeRow): GearSizes {
  return {
    finisherSleeveSize: row.finisherSleeveSize,
    vestSize: row.vestSize,
    customFinisherSleeveSize: row.customFinisherSleeveSize,
    customVestSize: row.customVestSize,
    hasSubmitted: row.gearSubmittedAt !== null,
  };
}
