import { describe, expect, it } from 'vitest';
import { inlineText, parseInline, parseMarkdown, safeHref } from './markdown';

describe('parseMarkdown', () => {
  it('reads headings, paragraphs and both kinds of list', () => {
    const blocks = parseMarkdown(
      [
        '# Privacy Notice',
        '',
        'We collect what we need',
        'to run the rally.',
        '',
        '## What we keep',
        '- Your name',
        '* Your **emergency contact**',
        '+ Your rider number',
        '',
        '1. Ask us',
        '2) We answer within 15 days',
      ].join('\n'),
    );
    expect(blocks).toEqual([
      { type: 'heading', level: 1, children: [{ type: 'text', text: 'Privacy Notice' }] },
      { type: 'paragraph', children: [{ type: 'text', text: 'We collect what we need to run the rally.' }] },
      { type: 'heading', level: 2, children: [{ type: 'text', text: 'What we keep' }] },
      {
        type: 'list',
        ordered: false,
        items: [
          [{ type: 'text', text: 'Your name' }],
          [
            { type: 'text', text: 'Your ' },
            { type: 'strong', children: [{ type: 'text', text: 'emergency contact' }] },
          ],
          [{ type: 'text', text: 'Your rider number' }],
        ],
      },
      {
        type: 'list',
        ordered: true,
        items: [[{ type: 'text', text: 'Ask us' }], [{ type: 'text', text: 'We answer within 15 days' }]],
      },
    ]);
  });

  it('keeps an indented line with its list item, and ends a list at a paragraph', () => {
    const blocks = parseMarkdown('- one\n  still one\n- two\nAfter.\r\n\r\n### Last ###');
    expect(blocks.map((b) => b.type)).toEqual(['list', 'paragraph', 'heading']);
    const list = blocks[0];
    expect(list?.type === 'list' && list.items.map(inlineText)).toEqual(['one still one', 'two']);
    const heading = blocks[2];
    expect(heading?.type === 'heading' && [heading.level, inlineText(heading.children)]).toEqual([3, 'Last']);
  });

  it('switches lists when bullets turn into numbers', () => {
    const blocks = parseMarkdown('- a\n1. b');
    expect(blocks.map((b) => b.type === 'list' && b.ordered)).toEqual([false, true]);
  });

  it('needs a space after the hashes for a heading', () => {
    expect(parseMarkdown('#hashtag')[0]?.type).toBe('paragraph');
  });

  it('reads nothing from an empty text', () => {
    expect(parseMarkdown('')).toEqual([]);
    expect(parseMarkdown('\n\n  \n')).toEqual([]);
  });

  it('keeps HTML as text: nothing is markup but the Markdown subset', () => {
    const blocks = parseMarkdown('<script>alert(1)</script> <b>bold</b>');
    expect(blocks).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: '<script>alert(1)</script> <b>bold</b>' }] },
    ]);
  });
});

describe('parseInline', () => {
  it('reads bold with either marker, and leaves a lone marker as text', () => {
    expect(parseInline('a **b** __c__ d ** e')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'strong', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'strong', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' d ** e' },
    ]);
  });

  it('reads links, inside bold too', () => {
    expect(parseInline('Write to [the DPO](mailto:dpo@example.ph) or **see [our page](/privacy)**')).toEqual([
      { type: 'text', text: 'Write to ' },
      { type: 'link', href: 'mailto:dpo@example.ph', children: [{ type: 'text', text: 'the DPO' }] },
      { type: 'text', text: ' or ' },
      {
        type: 'strong',
        children: [
          { type: 'text', text: 'see ' },
          { type: 'link', href: '/privacy', children: [{ type: 'text', text: 'our page' }] },
        ],
      },
    ]);
  });

  it('turns a link to an unsafe address into its text', () => {
    expect(parseInline('[click](javascript:alert(1))')).toEqual([
      { type: 'text', text: '[click](javascript:alert(1))' },
    ]);
    expect(parseInline('[click](javascript:alert)')).toEqual([{ type: 'text', text: 'click' }]);
    expect(parseInline('[x](//evil.example)')).toEqual([{ type: 'text', text: 'x' }]);
  });

  it('shows escaped markers as they are', () => {
    expect(parseInline('\\*\\*not bold\\*\\*')).toEqual([{ type: 'text', text: '**not bold**' }]);
  });
});

describe('safeHref', () => {
  it('allows the web, mail, phone and this site only', () => {
    expect(safeHref('https://npc.gov.ph')).toBe('https://npc.gov.ph');
    expect(safeHref('HTTP://x.ph')).toBe('HTTP://x.ph');
    expect(safeHref('mailto:a@b.ph')).toBe('mailto:a@b.ph');
    expect(safeHref('tel:+639171234567')).toBe('tel:+639171234567');
    expect(safeHref('/privacy?version=2')).toBe('/privacy?version=2');
    expect(safeHref('#rights')).toBe('#rights');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,hi')).toBeNull();
    expect(safeHref('//evil.example')).toBeNull();
  });
});
