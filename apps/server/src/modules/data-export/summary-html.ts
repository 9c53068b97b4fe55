// The export's summary.html: one self-contained page (no script, no outside file) a rider
// opens from the ZIP to read what is held about them, a section per kind with its counts and
// the main fields in tables. Everything from the database is escaped: a rider's name or a
// comment is text, never markup.
import type { ExportContent, ExportedRow } from './export-sections';

/** Rows shown per table; the JSON has them all. */
const SHOWN = 200;

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '<span class="none">—</span>';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return escapeHtml(value.map(String).join(', '));
  if (typeof value === 'object') return escapeHtml(JSON.stringify(value));
  return escapeHtml(String(value));
}

const label = (column: string) => column.replace(/_/g, ' ');

function table(name: string, rows: ExportedRow[], main: string[]): string {
  const count = `<h3>${escapeHtml(label(name))} <span class="count">${rows.length} ${rows.length === 1 ? 'row' : 'rows'}</span></h3>`;
  if (rows.length === 0 || main.length === 0) return count;
  const [only] = rows;
  if (rows.length === 1 && only) {
    // One row (the account, a setting): every field, down the page, is easier to read.
    const lines = Object.entries(only)
      .map(([k, v]) => `<tr><th>${escapeHtml(label(k))}</th><td>${cell(v)}</td></tr>`)
      .join('\n');
    return `${count}<div class="scroll"><table class="one"><tbody>${lines}</tbody></table></div>`;
  }
  const head = main.map((c) => `<th>${escapeHtml(label(c))}</th>`).join('');
  const body = rows
    .slice(0, SHOWN)
    .map((r) => `<tr>${main.map((c) => `<td>${cell(r[c])}</td>`).join('')}</tr>`)
    .join('\n');
  const more =
    rows.length > SHOWN ? `<p class="note">The first ${SHOWN} shown; all ${rows.length} are in the JSON file.</p>` : '';
  return `${count}<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>${more}`;
}

export function summaryHtml(content: ExportContent): string {
  const { person, generatedAt } = content;
  const sections = content.kinds
    .map(({ kind, tables }) => {
      const total = Object.values(tables).reduce((n, rows) => n + rows.length, 0);
      const parts = kind.sections.map((s) => table(s.table, tables[s.table] ?? [], s.main)).join('\n');
      return `<section id="${escapeHtml(kind.file)}">
<h2>${escapeHtml(kind.title)} <span class="count">${total}</span></h2>
<p>${escapeHtml(kind.description)} File: <code>${escapeHtml(kind.file)}.json</code>.</p>
${parts}
</section>`;
    })
    .join('\n');
  const work = Object.entries(content.staffWork);
  const staff =
    work.length === 0
      ? ''
      : `<section id="staff-work"><h2>What you did as staff <span class="count">${work.length}</span></h2>
<p>Rows that name you as the staff member who acted, by count. File: <code>staff-work.json</code>.</p>
<div class="scroll"><table><thead><tr><th>table and column</th><th>rows</th></tr></thead><tbody>
${work.map(([k, n]) => `<tr><td>${escapeHtml(k)}</td><td>${n}</td></tr>`).join('\n')}
</tbody></table></div></section>`;
  const files =
    content.files.length === 0
      ? ''
      : `<section id="files"><h2>Your files <span class="count">${content.files.length}</span></h2>
<ul>${content.files.map((f) => `<li><code>${escapeHtml(f.path)}</code></li>`).join('')}</ul></section>`;
  const toc = content.kinds
    .map(
      ({ kind, tables }) =>
        `<li><a href="#${escapeHtml(kind.file)}">${escapeHtml(kind.title)}</a> (${Object.values(tables).reduce((n, r) => n + r.length, 0)})</li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your data: ${escapeHtml(person.name)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem; color: #1c1917; background: #fafaf9; }
h1 { margin: 0 0 .25rem; } h2 { border-bottom: 2px solid #b91c1c; padding-bottom: .25rem; margin-top: 2rem; }
h3 { margin: 1.25rem 0 .5rem; font-size: 1rem; text-transform: capitalize; }
.count { font-weight: normal; color: #78716c; font-size: .85em; text-transform: none; }
.scroll { overflow-x: auto; } table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border: 1px solid #d6d3d1; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #e7e5e4; text-transform: capitalize; } .one th { width: 14rem; } .none { color: #a8a29e; } .note { color: #78716c; font-size: 13px; }
code { font-size: 13px; }
</style>
</head>
<body>
<header>
<h1>Your data</h1>
<p><strong>${escapeHtml(person.name)}</strong>${person.email ? ` (${escapeHtml(person.email)})` : ''}<br>
Generated ${escapeHtml(generatedAt.toISOString())} (UTC). Everything the rally platform holds about you, in every edition, as the Data Privacy Act of 2012 entitles you to.</p>
<p>Each section below has a JSON file of the same name in this ZIP with every row and column; this page shows the main ones. Left out on purpose: your password hash, session and reset tokens, device keys, and other people's personal data.</p>
<ul>${toc}</ul>
</header>
${sections}
${staff}
${files}
</body>
</html>
`;
}
