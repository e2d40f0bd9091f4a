/**
 * Reading an RFC 8288 `Link` field in tests: each link's target by its `rel`
 * (our links are `<target>; rel="name"`, comma-separated; a target never
 * holds a comma or `>` unescaped: URLSearchParams percent-encodes them).
 */
export function linksOf(headers: Headers): Record<string, string> {
  const field = headers.get('link');
  const links: Record<string, string> = {};
  if (field === null) return links;
  for (const part of field.split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (!match) throw new Error(`not a link of ours: ${part}`);
    links[match[2]!] = match[1]!;
  }
  return links;
}

/** The target of `rel="next"`, or null on the last page. */
export function nextOf(headers: Headers): string | null {
  return linksOf(headers).next ?? null;
}
