import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Wikipedia stand-in on 127.0.0.1 serving the wire formats of the two REST endpoints the
 * service calls: `GET /w/rest.php/v1/search/page` and `GET /api/rest_v1/page/summary/<title>`.
 *
 * Search queries that contain these trigger words misbehave:
 * - `explode`: 503 with an HTML error page;
 * - `garbled`: 200 with a truncated JSON body;
 * - `oddshape`: 200 with JSON that is not a search result;
 * - `sluggish`: answers (with the Alan Turing hit) only after `slowMs`.
 * Search hits for `brokensummary`, `badshape` and `vanished` lead to summaries that answer
 * 500, malformed JSON and 404. Anything matching no article gives `{ "pages": [] }`.
 */

/** One request the stand-in received. */
export interface StandinRequest {
  method: string;
  /** The raw request target, percent-encoding intact. */
  url: string;
  pathname: string;
  params: Record<string, string>;
  userAgent: string | undefined;
  accept: string | undefined;
}

export interface WikipediaStandin {
  /** `http://127.0.0.1:<port>`, to pass as the client's base URL. */
  baseUrl: string;
  requests: StandinRequest[];
  /** Stops the server and cuts any response still waiting to be sent. */
  close(): Promise<void>;
}

export interface StandinOptions {
  /** How long `sluggish` searches take; default 2000 ms. */
  slowMs?: number;
}

type SummaryFault = 'http500' | 'bad-shape' | 'missing';

interface Article {
  title: string;
  pageid: number;
  wikibaseItem: string;
  type: 'standard' | 'disambiguation';
  description: string;
  extract: string;
  /** Extra words a search matches besides the title's. */
  keywords: string[];
  summaryFault?: SummaryFault;
  thumbnail?: string;
}

export const standinArticles: Article[] = [
  {
    title: 'Alan Turing',
    pageid: 1208,
    wikibaseItem: 'Q7251',
    type: 'standard',
    description: 'English computer scientist (1912–1954)',
    thumbnail: 'Alan_Turing_%281912-1954%29_in_1936_at_Princeton_University.jpg',
    keywords: ['enigma', 'bletchley', 'computer', 'codebreaker', 'sluggish'],
    extract:
      'Alan Mathison Turing (23 June 1912 – 7 June 1954) was an English mathematician, computer scientist, ' +
      'logician, cryptanalyst, philosopher and theoretical biologist. He was highly influential in the ' +
      'development of theoretical computer science, providing a formalisation of the concepts of algorithm ' +
      'and computation with the Turing machine, which can be considered a model of a general-purpose ' +
      'computer. Turing is widely considered to be the father of theoretical computer science. Born in ' +
      'London, Turing was raised in southern England. He graduated from King’s College, Cambridge, and in ' +
      '1938 earned a doctorate degree from Princeton University in the U.S. state of New Jersey. During ' +
      'World War II, Turing worked for the Government Code and Cypher School at Bletchley Park, Britain’s ' +
      'codebreaking centre that produced Ultra intelligence. He led Hut 8, the section responsible for ' +
      'German naval cryptanalysis, and devised techniques for breaking the Enigma machine.',
  },
  {
    title: 'Photosynthesis',
    pageid: 24544,
    wikibaseItem: 'Q11982',
    type: 'standard',
    description: 'Biological process to convert light into chemical energy',
    thumbnail: 'Leaf_1_web.jpg',
    keywords: ['plants', 'chlorophyll', 'oxygen', 'sunlight'],
    extract:
      'Photosynthesis is a system of biological processes by which photosynthetic organisms, such as most ' +
      'plants, algae, and cyanobacteria, convert light energy, typically from sunlight, into the chemical ' +
      'energy necessary to fuel their metabolism. Photosynthesis usually refers to oxygenic photosynthesis, ' +
      'a process that produces oxygen. Photosynthetic organisms store the chemical energy so produced within ' +
      'intracellular organic compounds like sugars, glycogen, cellulose and starches. Most plants, algae, ' +
      'and cyanobacteria perform photosynthesis; such organisms are called photoautotrophs. Photosynthesis ' +
      'is largely responsible for producing and maintaining the oxygen content of the Earth’s atmosphere, ' +
      'and supplies most of the biological energy necessary for complex life on Earth.',
  },
  {
    title: 'Mercury',
    pageid: 19694,
    wikibaseItem: 'Q242',
    type: 'disambiguation',
    description: 'Topics referred to by the same term',
    keywords: [],
    extract:
      'Mercury commonly refers to: Mercury (planet), the nearest planet to the Sun Mercury (element), a ' +
      'metallic chemical element with the symbol Hg Mercury (mythology), a Roman god Mercury or The Mercury ' +
      'may also refer to:',
  },
  {
    title: 'Mercury (planet)',
    pageid: 19694890,
    wikibaseItem: 'Q308',
    type: 'standard',
    description: 'First planet from the Sun',
    thumbnail: 'Mercury_in_true_color.jpg',
    keywords: ['planet'],
    extract:
      'Mercury is the first planet from the Sun and the smallest in the Solar System. It is a rocky planet ' +
      'with a trace atmosphere and a surface gravity slightly higher than that of Mars.',
  },
  {
    title: 'AC/DC',
    pageid: 18932622,
    wikibaseItem: 'Q925',
    type: 'standard',
    description: 'Australian rock band',
    keywords: ['acdc', 'band'],
    extract:
      'AC/DC are an Australian rock band formed in Sydney in 1973 by Scottish-born brothers Malcolm and ' +
      'Angus Young. Their music has been variously described as hard rock, blues rock, and heavy metal.',
  },
  {
    title: 'Broken Summary',
    pageid: 900001,
    wikibaseItem: 'Q900001',
    type: 'standard',
    description: 'A page whose summary fails',
    keywords: ['brokensummary'],
    summaryFault: 'http500',
    extract: '',
  },
  {
    title: 'Bad Shape',
    pageid: 900002,
    wikibaseItem: 'Q900002',
    type: 'standard',
    description: 'A page whose summary is not a summary',
    keywords: ['badshape'],
    summaryFault: 'bad-shape',
    extract: '',
  },
  {
    title: 'Vanished Page',
    pageid: 900003,
    wikibaseItem: 'Q900003',
    type: 'standard',
    description: 'A page deleted since the search index saw it',
    keywords: ['vanished'],
    summaryFault: 'missing',
    extract: '',
  },
];

const WIKI = 'https://en.wikipedia.org';
const MOBILE = 'https://en.m.wikipedia.org';
const SUMMARY_PREFIX = '/api/rest_v1/page/summary/';
const SUMMARY_CONTENT_TYPE =
  'application/json; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/Summary/1.5.0"';

/** Starts the stand-in on 127.0.0.1 on a free port. */
export async function startWikipediaStandin(options: StandinOptions = {}): Promise<WikipediaStandin> {
  const slowMs = options.slowMs ?? 2000;
  const requests: StandinRequest[] = [];
  const pending = new Set<{ timer: NodeJS.Timeout; res: ServerResponse }>();

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      pathname: url.pathname,
      params: Object.fromEntries(url.searchParams),
      userAgent: req.headers['user-agent'],
      accept: req.headers.accept,
    });
    if (req.method !== 'GET') {
      sendJson(res, 405, restError('method_not_allowed', 405));
      return;
    }
    if (url.pathname === '/w/rest.php/v1/search/page') {
      handleSearch(url, res, later);
      return;
    }
    if (url.pathname.startsWith(SUMMARY_PREFIX)) {
      handleSummary(req, res);
      return;
    }
    sendJson(res, 404, notFound(url.pathname));
  });

  function later(res: ServerResponse, send: () => void): void {
    const entry = {
      res,
      timer: setTimeout(() => {
        pending.delete(entry);
        send();
      }, slowMs),
    };
    pending.add(entry);
    res.on('close', () => {
      clearTimeout(entry.timer);
      pending.delete(entry);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const entry of pending) {
        clearTimeout(entry.timer);
        entry.res.destroy();
      }
      pending.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function handleSearch(
  url: URL,
  res: ServerResponse,
  later: (res: ServerResponse, send: () => void) => void,
): void {
  const q = url.searchParams.get('q');
  if (q === null) {
    sendJson(res, 400, missingParam('q'));
    return;
  }
  const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 10) || 10, 1), 100);
  const words = q.toLowerCase().split(/[^\p{L}\p{N}]+/u);

  if (words.includes('explode')) {
    res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!DOCTYPE html><html><head><title>Wikimedia Error</title></head><body>Our servers are ' +
        'currently under maintenance or experiencing a technical problem.</body></html>',
    );
    return;
  }
  if (words.includes('garbled')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"pages":[{"id":1208,"key":"Alan_Turing","title":"Alan Tur');
    return;
  }
  if (words.includes('oddshape')) {
    sendJson(res, 200, { results: [{ name: 'Alan Turing' }] });
    return;
  }

  const body = { pages: search(q, limit).map(searchHit) };
  if (words.includes('sluggish')) {
    later(res, () => sendJson(res, 200, body));
    return;
  }
  sendJson(res, 200, body);
}

function handleSummary(req: IncomingMessage, res: ServerResponse): void {
  const rawPath = (req.url ?? '').split('?')[0];
  let title: string;
  try {
    title = decodeURIComponent(rawPath.slice(SUMMARY_PREFIX.length)).replace(/_/g, ' ');
  } catch {
    sendJson(res, 400, restError('bad_request', 400));
    return;
  }
  const article = standinArticles.find((candidate) => candidate.title === title);
  if (!article || article.summaryFault === 'missing') {
    sendJson(res, 404, notFound(rawPath));
    return;
  }
  if (article.summaryFault === 'http500') {
    sendJson(res, 500, restError('internal_error', 500));
    return;
  }
  if (article.summaryFault === 'bad-shape') {
    res.writeHead(200, { 'content-type': SUMMARY_CONTENT_TYPE });
    res.end(JSON.stringify({ type: 'standard', extract: 'No title here.' }));
    return;
  }
  res.writeHead(200, { 'content-type': SUMMARY_CONTENT_TYPE });
  res.end(JSON.stringify(summary(article)));
}

/** Articles whose title or keywords share a word with the query, exact title first. */
function search(q: string, limit: number): Article[] {
  const query = q.toLowerCase().trim();
  const words = query.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 1);
  return standinArticles
    .map((article, index) => {
      const own = new Set([...article.title.toLowerCase().split(/[^\p{L}\p{N}]+/u), ...article.keywords]);
      let score = words.filter((word) => own.has(word)).length;
      if (article.title.toLowerCase() === query) score += 10;
      return { article, index, score };
    })
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((ranked) => ranked.article);
}

const key = (title: string): string => title.replace(/ /g, '_');
const pageUrl = (origin: string, title: string): string => `${origin}/wiki/${encodeURI(key(title))}`;

function searchHit(article: Article) {
  return {
    id: article.pageid,
    key: key(article.title),
    title: article.title,
    excerpt: `<span class="searchmatch">${article.title}</span> ${article.extract.slice(0, 80)}`,
    matched_title: null,
    anchor: null,
    description: article.description,
    thumbnail: article.thumbnail
      ? {
          mimetype: 'image/jpeg',
          width: 60,
          height: 76,
          duration: null,
          url: `//upload.wikimedia.org/wikipedia/commons/thumb/a/a1/${article.thumbnail}/60px-${article.thumbnail}`,
        }
      : null,
  };
}

function summary(article: Article) {
  const display = `<span class="mw-page-title-main">${article.title}</span>`;
  const talk = `Talk:${key(article.title)}`;
  return {
    type: article.type,
    title: article.title,
    displaytitle: display,
    namespace: { id: 0, text: '' },
    wikibase_item: article.wikibaseItem,
    titles: { canonical: key(article.title), normalized: article.title, display },
    pageid: article.pageid,
    ...(article.thumbnail
      ? {
          thumbnail: {
            source: `https://upload.wikimedia.org/wikipedia/commons/thumb/a/a1/${article.thumbnail}/320px-${article.thumbnail}`,
            width: 320,
            height: 427,
          },
          originalimage: {
            source: `https://upload.wikimedia.org/wikipedia/commons/a/a1/${article.thumbnail}`,
            width: 1200,
            height: 1600,
          },
        }
      : {}),
    lang: 'en',
    dir: 'ltr',
    revision: '1223456789',
    tid: '5a1c2e40-0a4b-11ef-9e2c-4f3e0f6a8b1d',
    timestamp: '2024-05-05T10:21:37Z',
    description: article.description,
    description_source: 'local',
    content_urls: {
      desktop: {
        page: pageUrl(WIKI, article.title),
        revisions: `${pageUrl(WIKI, article.title)}?action=history`,
        edit: `${pageUrl(WIKI, article.title)}?action=edit`,
        talk: `${WIKI}/wiki/${encodeURI(talk)}`,
      },
      mobile: {
        page: pageUrl(MOBILE, article.title),
        revisions: `${MOBILE}/wiki/Special:History/${encodeURI(key(article.title))}`,
        edit: `${pageUrl(MOBILE, article.title)}?action=edit`,
        talk: `${MOBILE}/wiki/${encodeURI(talk)}`,
      },
    },
    extract: article.extract,
    extract_html: `<p>${article.extract.replace(article.title, `<b>${article.title}</b>`)}</p>`,
  };
}

/** The REST API's error body for a missing page. */
function notFound(path: string) {
  return {
    type: 'https://mediawiki.org/wiki/HyperSwitch/errors/not_found',
    title: 'Not found.',
    method: 'get',
    detail: 'Page or revision not found.',
    uri: `/en.wikipedia.org/v1${path.replace(/^\/api\/rest_v1/, '')}`,
  };
}

function restError(kind: string, status: number) {
  return {
    type: `https://mediawiki.org/wiki/HyperSwitch/errors/${kind}`,
    title: kind === 'internal_error' ? 'Internal error' : 'Error',
    method: 'get',
    status,
  };
}

/** The rest.php error body for a missing parameter. */
function missingParam(name: string) {
  return {
    messageTranslations: { en: `The "${name}" parameter must be set.` },
    errorKey: 'paramvalidator-missingparam',
    httpCode: 400,
    httpReason: 'Bad Request',
    name,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
