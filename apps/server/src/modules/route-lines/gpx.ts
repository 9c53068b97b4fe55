// Reading an organiser's GPX file (DESIGN.md §11) into one line of points. GPX is a small,
// fixed XML vocabulary and only a handful of its elements matter here (`trk/trkseg/trkpt`,
// `rte/rtept`, their `lat`/`lon` and the names), so a careful scanner reads it: no
// dependency, no entity expansion (nothing a file says can make it read another file or grow
// without bound), and a refusal that says what was wrong instead of a parser's stack.
import type { LatLng } from '@rally/shared/geo';
import { BadRequestError } from '../../lib/errors';

/** Bigger than any trial's track at one point every few metres (1,213 km ≈ 10 MB). */
export const GPX_MAX_BYTES = 20 * 1024 * 1024;
/** One point every 5 m over the longest trial is 250,000: twice that is a file to thin first. */
export const GPX_MAX_POINTS = 500_000;

export interface ParsedGpx {
  /** The track's (or route's) own name, else the file's metadata name. */
  name: string | null;
  /** Every point in file order, tracks' segments (or routes) joined; repeated points once. */
  points: LatLng[];
  /** GPX 1.0 or 1.1, as the root says (null when it does not). */
  version: string | null;
}

export const gpxInvalid = (why: string) => new BadRequestError(`The file is not a GPX track: ${why}`, 'GPX_INVALID');

const GPX_NAMESPACES = new Set(['http://www.topografix.com/GPX/1/0', 'http://www.topografix.com/GPX/1/1']);

/** Bytes to text: UTF-8 (with or without its mark) or UTF-16 with its mark, as XML allows. */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  // Older exporters (GPSBabel) declare Latin-1; its names' accents would be lost as UTF-8.
  const declared = /^\s*<\?xml[^?]*encoding\s*=\s*["']([\w.-]+)["']/i.exec(
    new TextDecoder('latin1').decode(bytes.subarray(0, 200)),
  );
  const latin = declared && /^(iso-8859-1|latin-?1|windows-1252|cp1252|us-ascii)$/i.test(declared[1] as string);
  return new TextDecoder(latin ? 'windows-1252' : 'utf-8').decode(bytes);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(Number.parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith('#')) return safeCodePoint(Number.parseInt(ref.slice(1), 10)) ?? whole;
    return ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(n: number): string | undefined {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** The line (1-based) of `index`, for messages that point into the file. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
const TAG_NAME = /^[^\s/>]+/;

interface Element {
  /** As written, prefix and all. */
  qname: string;
  name: string;
  attributes: Map<string, string>;
}

/** Parses a start tag's inside (`trkpt lat="7.1" lon="125.6"`) into its local name and attributes. */
function readStartTag(inside: string): Element | null {
  const name = TAG_NAME.exec(inside)?.[0];
  if (!name) return null;
  const attributes = new Map<string, string>();
  ATTRIBUTE.lastIndex = name.length;
  for (let m = ATTRIBUTE.exec(inside); m; m = ATTRIBUTE.exec(inside)) {
    attributes.set(m[1] as string, unescapeXml(m[3] ?? m[4] ?? ''));
  }
  return { qname: name, name: localName(name), attributes };
}

/** Where the tag opened at `from` ends (its `>`), quotes respected; -1 when it never does. */
function tagEnd(text: string, from: number): number {
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

/** `where` is built only for a message: finding a line number reads the file up to it. */
function coordinate(el: Element, attr: 'lat' | 'lon', limit: number, where: () => string): number {
  const raw = el.attributes.get(attr);
  if (raw === undefined) throw gpxInvalid(`${where()} has no ${attr} attribute`);
  const value = raw.trim() === '' ? Number.NaN : Number(raw.trim());
  if (!Number.isFinite(value) || Math.abs(value) > limit)
    throw gpxInvalid(
      `${where()} has ${attr}="${raw.slice(0, 30)}" (${attr} must be a number from -${limit} to ${limit})`,
    );
  return value;
}

/**
 * The points of a GPX 1.0 or 1.1 file: its tracks (every segment of every track, in file
 * order), or, in a file without a track, its routes. A file holding both is usually a
 * planner's export where the route is the sparse plan and the track the road itself, so the
 * track wins. Refuses (400 GPX_INVALID) anything else with the reason.
 */
export function parseGpx(bytes: Uint8Array): ParsedGpx {
  if (bytes.length === 0) throw gpxInvalid('the file is empty');
  if (bytes.length > GPX_MAX_BYTES)
    throw gpxInvalid(`the file is larger than ${GPX_MAX_BYTES / 1024 / 1024} MB; thin the track and try again`);
  const text = decode(bytes);
  const first = text.search(/\S/);
  if (first === -1 || text[first] !== '<') throw gpxInvalid('it is not XML (a GPX file begins with "<?xml" or "<gpx")');

  const stack: string[] = [];
  let root: Element | null = null;
  const trackPoints: LatLng[] = [];
  const routePoints: LatLng[] = [];
  let trackName: string | null = null;
  let routeName: string | null = null;
  let metadataName: string | null = null;
  let nameText: string | null = null;
  let pos = first;

  const push = (into: LatLng[], point: LatLng) => {
    const last = into[into.length - 1];
    if (last && last.lat === point.lat && last.lng === point.lng) return;
    if (trackPoints.length + routePoints.length >= GPX_MAX_POINTS)
      throw gpxInvalid(
        `it has more than ${GPX_MAX_POINTS.toLocaleString('en')} points; thin it to one every few metres first`,
      );
    into.push(point);
  };

  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    const chunkEnd = lt === -1 ? text.length : lt;
    if (nameText !== null) nameText += text.slice(pos, chunkEnd);
    else if (stack.length === 0 && /\S/.test(text.slice(pos, chunkEnd)))
      throw gpxInvalid(`there is text outside the <gpx> element (line ${lineAt(text, pos)})`);
    if (lt === -1) break;

    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end === -1) throw gpxInvalid(`a comment is never closed (line ${lineAt(text, lt)})`);
      pos = end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end === -1) throw gpxInvalid(`a CDATA section is never closed (line ${lineAt(text, lt)})`);
      if (nameText !== null) nameText += `\u0000${text.slice(lt + 9, end)}\u0000`;
      pos = end + 3;
      continue;
    }
    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end === -1) throw gpxInvalid(`a processing instruction is never closed (line ${lineAt(text, lt)})`);
      pos = end + 2;
      continue;
    }
    if (text.startsWith('<!', lt)) {
      // A DOCTYPE: skipped whole, internal subset and all; no entity it declares is expanded.
      const bracket = text.indexOf('[', lt);
      const close = text.indexOf('>', lt);
      const end = bracket !== -1 && bracket < close ? text.indexOf(']>', bracket) + 1 : close;
      if (end <= 0) throw gpxInvalid(`a declaration is never closed (line ${lineAt(text, lt)})`);
      pos = end + 1;
      continue;
    }

    const gt = tagEnd(text, lt + 1);
    if (gt === -1) throw gpxInvalid(`the file ends inside a tag (line ${lineAt(text, lt)}): was it cut short?`);
    const inside = text.slice(lt + 1, gt);
    pos = gt + 1;

    if (inside.startsWith('/')) {
      const name = localName(inside.slice(1).trim());
      const open = stack.pop();
      if (open !== name)
        throw gpxInvalid(
          `</${name}> closes ${open ? `<${open}>` : 'nothing'} (line ${lineAt(text, lt)}): the XML is broken`,
        );
      if (name === 'name' && nameText !== null) {
        const value = nameText
          .split('\u0000')
          .map((part, i) => (i % 2 === 0 ? unescapeXml(part) : part))
          .join('')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 200);
        const parent = stack[stack.length - 1];
        if (value) {
          if (parent === 'trk') trackName ??= value;
          else if (parent === 'rte') routeName ??= value;
          else if (parent === 'metadata' || parent === 'gpx') metadataName ??= value;
        }
        nameText = null;
      }
      continue;
    }

    const selfClosing = inside.endsWith('/');
    const el = readStartTag(selfClosing ? inside.slice(0, -1) : inside);
    if (!el) throw gpxInvalid(`a tag has no name (line ${lineAt(text, lt)})`);
    if (!root) {
      if (el.name !== 'gpx') throw gpxInvalid(`its root element is <${el.name}>, not <gpx>`);
      // Its own namespace (the default one, or its prefix's), when it declares one, is GPX's.
      const prefix = el.qname.includes(':') ? el.qname.slice(0, el.qname.indexOf(':')) : '';
      const ns = el.attributes.get(prefix ? `xmlns:${prefix}` : 'xmlns')?.trim();
      if (ns && !GPX_NAMESPACES.has(ns)) throw gpxInvalid(`its namespace is ${ns.slice(0, 80)}, not GPX 1.0 or 1.1`);
      root = el;
    } else if (stack.length === 0) {
      throw gpxInvalid(`there is a second root element <${el.name}> after </gpx>`);
    }

    const parent = stack[stack.length - 1];
    if (el.name === 'trkpt' && parent === 'trkseg') {
      const where = () => `track point ${trackPoints.length + 1} (line ${lineAt(text, lt)})`;
      push(trackPoints, { lat: coordinate(el, 'lat', 90, where), lng: coordinate(el, 'lon', 180, where) });
    } else if (el.name === 'rtept' && parent === 'rte') {
      const where = () => `route point ${routePoints.length + 1} (line ${lineAt(text, lt)})`;
      push(routePoints, { lat: coordinate(el, 'lat', 90, where), lng: coordinate(el, 'lon', 180, where) });
    }
    if (selfClosing) continue;
    stack.push(el.name);
    if (el.name === 'name') nameText = '';
  }

  if (!root) throw gpxInvalid('it has no <gpx> element');
  if (stack.length > 0) throw gpxInvalid(`it ends before </${stack[stack.length - 1]}>: was it cut short?`);
  const points = trackPoints.length > 0 ? trackPoints : routePoints;
  if (points.length < 2)
    throw gpxInvalid(
      points.length === 0
        ? 'it holds no track points (<trkpt>) or route points (<rtept>)'
        : 'it holds a single point; a route needs at least two',
    );
  const name = (trackPoints.length > 0 ? trackName : routeName) ?? metadataName;
  return { name, points, version: root.attributes.get('version') ?? null };
}
