// The privacy notice and terms are Markdown the organiser writes in the console. They are
// parsed here into plain data (headings, paragraphs, lists; bold and links inline) that
// React renders as elements: no HTML string is ever put into the page, so whatever the text
// holds, `<script>` included, shows as text. A small subset on purpose, and no dependency.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'list'; ordered: boolean; items: Inline[][] };

/** Where a link may go: the web, mail, a phone, or a page of this site. Anything else (javascript:) is text. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (/^(https?:|mailto:|tel:)/i.test(href)) return href;
  if (href.startsWith('/') && !href.startsWith('//')) return href;
  if (href.startsWith('#')) return href;
  return null;
}

function pushText(out: Inline[], text: string) {
  if (text === '') return;
  const last = out.at(-1);
  if (last?.type === 'text') last.text += text;
  else out.push({ type: 'text', text });
}

/** Bold (`**x**` or `__x__`) and links (`[text](url)`); a marker without its pair stays text. */
export function parseInline(source: string, inStrong = false): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const strong = inStrong ? null : /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest);
    if (strong) {
      out.push({ type: 'strong', children: parseInline(strong[2] ?? '', true) });
      i += strong[0].length;
      continue;
    }
    const link = /^\[([^\]\n]+)\]\(([^()\s]+)\)/.exec(rest);
    if (link) {
      const href = safeHref(link[2] ?? '');
      const children = parseInline(link[1] ?? '', inStrong);
      if (href) out.push({ type: 'link', href, children });
      else for (const child of children) child.type === 'text' ? pushText(out, child.text) : out.push(child);
      i += link[0].length;
      continue;
    }
    // A backslash keeps the next marker as text (`\*\*` shows two stars).
    if (rest[0] === '\\' && rest.length > 1 && /[\\*_[\]()#-]/.test(rest[1] ?? '')) {
      pushText(out, rest[1] ?? '');
      i += 2;
      continue;
    }
    pushText(out, rest[0] ?? '');
    i += 1;
  }
  return out;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;

interface OpenList {
  ordered: boolean;
  items: string[];
}

/** The blocks of `source`: blank lines separate paragraphs; a list runs while its items do. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  // Held in an object: the helpers below change them, which control-flow narrowing cannot follow.
  const open: { paragraph: string[]; list: OpenList | null } = { paragraph: [], list: null };

  const endParagraph = () => {
    if (open.paragraph.length > 0) blocks.push({ type: 'paragraph', children: parseInline(open.paragraph.join(' ')) });
    open.paragraph = [];
  };
  const endList = () => {
    const list = open.list;
    if (list) blocks.push({ type: 'list', ordered: list.ordered, items: list.items.map((item) => parseInline(item)) });
    open.list = null;
  };

  for (const raw of lines) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      endParagraph();
      endList();
      continue;
    }
    const heading = /^\s{0,3}#/.test(line) ? HEADING.exec(line.trimStart()) : null;
    if (heading) {
      endParagraph();
      endList();
      const level = (heading[1]?.length ?? 1) as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ type: 'heading', level, children: parseInline(heading[2] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      endParagraph();
      const ordered = numbered !== null;
      if (open.list && open.list.ordered !== ordered) endList();
      open.list ??= { ordered, items: [] };
      open.list.items.push((item[1] ?? '').trim());
      continue;
    }
    const items = open.list?.items;
    if (items && items.length > 0 && /^\s+/.test(raw)) {
      // An indented line goes on with the item above it.
      items[items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    endList();
    open.paragraph.push(line.trim());
  }
  endParagraph();
  endList();
  return blocks;
}

/** The text alone (a preview's word count, a title): markers dropped. */
export function inlineText(children: Inline[]): string {
  return children.map((c) => (c.type === 'text' ? c.text : inlineText(c.children))).join('');
}
