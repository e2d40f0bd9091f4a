/**
 * Every relative link in README.md and docs/*.md resolves in the repository: the file (or folder)
 * exists, and an anchor names a heading of its target, slugged as GitHub does (github-slugger:
 * lower case, punctuation dropped, spaces to hyphens, repeats numbered -1, -2, …).
 */
import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '..');
const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The text outside fenced code blocks (a `#` in a shell block is no heading, a `](x)` in code no link). */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    return !fenced && !/^\s*```/.test(line);
  });
}

/** GitHub's anchor for a heading's text. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file has. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count ? `${base}-${count}` : base);
  }
  return out;
}

/** The relative link targets of a file: `[text](target)` and `![alt](target)`, outside code. */
function links(file: string): string[] {
  const text = prose(readFileSync(join(ROOT, file), 'utf8')).join('\n').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('documentation links', () => {
  it('finds headings the way GitHub anchors them', () => {
    expect(slug('Live market data (Alpaca and Polygon)')).toBe('live-market-data-alpaca-and-polygon');
    expect(slug('Capacity planning (`breakline capacity`)')).toBe('capacity-planning-breakline-capacity');
    expect(slug('Stopping (SIGTERM, SIGINT)')).toBe('stopping-sigterm-sigint');
  });

  it.each(FILES)('%s: every relative link resolves in the repository', (file) => {
    const broken: string[] = [];
    for (const target of links(file)) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const absolute = path ? resolve(ROOT, dirname(file), decodeURI(path)) : join(ROOT, file);
      if (!absolute.startsWith(ROOT) || !existsSync(absolute)) {
        broken.push(`${target}: no ${relative(ROOT, absolute)}`);
        continue;
      }
      if (anchor && absolute.endsWith('.md') && statSync(absolute).isFile() && !anchors(absolute).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, absolute)}`);
    }
    expect(broken).toEqual([]);
  });

  it('README.md stays the short manual (under 500 lines), the rest in docs/', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThan(500);
  });
});
