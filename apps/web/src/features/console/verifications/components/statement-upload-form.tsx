// Uploading a payment statement (the organiser's GCash or bank history, CSV or a PDF with
// text): GCash and common bank exports have their columns known; a custom file names its
// columns here. What was chosen stays when the upload fails, so it can be sent again.
import type { StatementPreset } from '@rally/shared/catalog/receipts';
import type { StatementDetail, StatementMapping } from '@rally/shared/contracts/receipts';
import { useMutation } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { SelectField } from '../../components/select-field';
import { uploadStatement } from '../api/receipts-api';

const PRESET_OPTIONS: ReadonlyArray<readonly [StatementPreset, string]> = [
  ['gcash', 'GCash'],
  ['bank', 'Bank'],
  ['custom', 'Custom'],
];

const COLUMNS: ReadonlyArray<readonly [keyof StatementMapping, string, string]> = [
  ['referenceNumber', 'Reference column', 'Reference No.'],
  ['amount', 'Amount column', 'Amount'],
  ['paidAt', 'Date column', 'Date'],
  ['description', 'Description column (optional)', 'Description'],
];

type Columns = Record<keyof StatementMapping, string>;

export function StatementUploadForm({ onUploaded }: { onUploaded: (statement: StatementDetail) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preset, setPreset] = useState<StatementPreset>('gcash');
  const [columns, setColumns] = useState<Columns>({ referenceNumber: '', amount: '', paidAt: '', description: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const fileId = useId();
  const formId = useId();

  const upload = useMutation({
    mutationFn: (v: { file: File; preset: StatementPreset; mapping?: StatementMapping }) =>
      uploadStatement(v.file, v.preset, v.mapping),
    onSuccess: (statement) => {
      setProblem(null);
      onUploaded(statement);
    },
    onError: (error) => setProblem(error.message || 'Failed to upload the statement. Please try again.'),
  });

  const submit = () => {
    if (!file) return setProblem('Choose the statement file (CSV or PDF).');
    let mapping: StatementMapping | undefined;
    if (preset === 'custom') {
      const { referenceNumber, amount, paidAt, description } = columns;
      if (!referenceNumber.trim() || !amount.trim() || !paidAt.trim())
        return setProblem('Name the reference, amount and date columns as the file heads them.');
      mapping = {
        referenceNumber: referenceNumber.trim(),
        amount: amount.trim(),
        paidAt: paidAt.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
      };
    }
    setProblem(null);
    upload.mutate({ file, preset, mapping });
  };

  return (
    <form
      className="flex flex-col gap-3 rounded-md border border-ink-700 bg-ink-850 p-3"
      data-testid="statement-upload"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <div className="min-w-0">
          <label htmlFor={fileId} className={labelStyles}>
            Statement file (CSV or PDF)
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,.pdf,text/csv,application/pdf"
            onChange={(e) => {
              setProblem(null);
              setFile(e.target.files?.[0] ?? null);
            }}
            className={`${inputStyles} file:mr-3 file:rounded file:border-0 file:bg-ink-700 file:px-3 file:py-1 file:text-bone`}
          />
        </div>
        <SelectField label="Source" value={preset} onChange={setPreset} options={PRESET_OPTIONS} />
      </div>
      {preset === 'custom' && (
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-sm text-ash">The file's column names, as its header row spells them.</legend>
          {COLUMNS.map(([key, label, example]) => (
            <div key={key} className="min-w-0">
              <label htmlFor={`${formId}-${key}`} className={labelStyles}>
                {label}
              </label>
              <input
                id={`${formId}-${key}`}
                value={columns[key]}
                maxLength={100}
                placeholder={example}
                onChange={(e) => {
                  setProblem(null);
                  setColumns((c) => ({ ...c, [key]: e.target.value }));
                }}
                className={inputStyles}
              />
            </div>
          ))}
        </fieldset>
      )}
      {problem && (
        <p role="alert" className="text-sm font-bold text-ember-400">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" disabled={upload.isPending} className={buttonStyles('primary', 'md', 'w-full sm:w-auto')}>
          <Upload className="size-5" aria-hidden="true" />
          {upload.isPending ? 'Uploading...' : 'Upload statement'}
        </button>
      </div>
    </form>
  );
}
