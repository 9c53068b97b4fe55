// The notice's Markdown as React elements (lib/markdown.ts): text is always text, never HTML.
import { useMemo } from 'react';
import { type Block, type Inline, parseMarkdown } from '../lib/markdown';

function InlineNodes({ nodes }: { nodes: Inline[] }) {
  return (
    <>
      {nodes.map((node, i) => {
        const key = `${node.type}-${i}`;
        if (node.type === 'text') return <span key={key}>{node.text}</span>;
        if (node.type === 'strong')
          return (
            <strong key={key} className="font-bold text-bone">
              <InlineNodes nodes={node.children} />
            </strong>
          );
        const external = /^https?:/i.test(node.href);
        return (
          <a
            key={key}
            href={node.href}
            className="font-bold break-words text-fire-300 underline underline-offset-4 hover:text-fire-400"
            {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : {})}
          >
            <InlineNodes nodes={node.children} />
          </a>
        );
      })}
    </>
  );
}

const HEADING_CLASS = ['text-2xl', 'text-xl', 'text-lg', 'text-base', 'text-base', 'text-base'];

function BlockNode({ block, headingBase }: { block: Block; headingBase: number }) {
  if (block.type === 'heading') {
    // The page has its own h1 (and h2): the text's headings sit under it.
    const level = Math.min(6, block.level + headingBase - 1);
    const Tag = `h${level}` as 'h2';
    return (
      <Tag className={`mt-6 font-display text-bone first:mt-0 ${HEADING_CLASS[block.level - 1] ?? 'text-base'}`}>
        <InlineNodes nodes={block.children} />
      </Tag>
    );
  }
  if (block.type === 'paragraph')
    return (
      <p className="mt-3 first:mt-0">
        <InlineNodes nodes={block.children} />
      </p>
    );
  const List = block.ordered ? 'ol' : 'ul';
  return (
    <List className={`mt-3 space-y-1.5 pl-5 first:mt-0 ${block.ordered ? 'list-decimal' : 'list-disc'}`}>
      {block.items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the items of a text never reorder
        <li key={i}>
          <InlineNodes nodes={item} />
        </li>
      ))}
    </List>
  );
}

/** `headingBase`: the element a `#` heading becomes (2: `<h2>`). */
export function MarkdownView({
  text,
  headingBase = 2,
  className = '',
}: {
  text: string;
  headingBase?: number;
  className?: string;
}) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return (
    <div className={`min-w-0 leading-relaxed break-words text-ash ${className}`}>
      {blocks.map((block, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are re-parsed from the text as a whole
        <BlockNode key={i} block={block} headingBase={headingBase} />
      ))}
    </div>
  );
}
