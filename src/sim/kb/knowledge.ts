import MiniSearch from 'minisearch';
import type { DocumentInput } from '../fixtures';
import { sentences, terms, toTerm, tokens } from './tokenize';

/** A stored document: text (`content`) or Q&A (`question` + `answer`). */
export interface KbDocument {
  id: string;
  kind: 'text' | 'qa';
  title: string;
  category: string;
  content?: string;
  question?: string;
  answer?: string;
}

/** One retrieval hit: BM25 score from MiniSearch plus the query terms the document matched. */
export interface Hit {
  doc: KbDocument;
  score: number;
  matched: ReadonlySet<string>;
}

interface Indexed {
  id: string;
  title: string;
  body: string;
  question: string;
  category: string;
}

/** The searchable documents of one site: a MiniSearch (BM25+) index plus document frequencies for IDF weights. */
export class SiteKnowledge {
  private readonly docs = new Map<string, KbDocument>();
  private readonly df = new Map<string, number>();
  private readonly index = new MiniSearch<Indexed>({
    fields: ['title', 'body', 'question', 'category'],
    tokenize: tokens,
    processTerm: (t) => toTerm(t),
  });

  constructor(private readonly siteId: string) {}

  add(input: DocumentInput): KbDocument {
    const id = input.id && !this.docs.has(input.id) ? input.id : `${this.siteId}-doc-${this.docs.size + 1}`;
    const kind = input.content !== undefined ? 'text' : 'qa';
    const doc: KbDocument = { id, kind, title: input.title.trim(), category: input.category ?? '' };
    if (kind === 'text') doc.content = input.content?.trim();
    else Object.assign(doc, { question: input.question?.trim(), answer: input.answer?.trim() });
    this.docs.set(id, doc);
    const body = doc.content ?? `${doc.answer ?? ''}`;
    this.index.add({ id, title: doc.title, body, question: doc.question ?? '', category: doc.category });
    for (const t of new Set(terms(`${doc.title} ${body} ${doc.question ?? ''} ${doc.category}`))) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    return doc;
  }

  list(): KbDocument[] {
    return [...this.docs.values()];
  }

  get size(): number {
    return this.docs.size;
  }

  /** Whether some document uses the term. */
  knows(term: string): boolean {
    return this.df.has(term);
  }

  /** BM25-style inverse document frequency; unseen terms weigh the most. */
  idf(term: string): number {
    const n = this.docs.size;
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Ranks documents for the `current` question terms plus `context` terms weighted by `weight`
   * (question terms should weigh 1). Terms of 6+ letters also match with one typo.
   */
  search(current: readonly string[], context: readonly string[], weight: (term: string) => number, limit = 5): Hit[] {
    const all = [...current, ...context];
    if (all.length === 0 || this.docs.size === 0) return [];
    const results = this.index.search(all.join(' '), {
      tokenize: (q) => q.split(' '),
      processTerm: (t) => t,
      boost: { title: 2, question: 2.5, category: 0.5 },
      boostTerm: (t, i) => (i < current.length ? 1 : weight(t)),
      fuzzy: (t) => (t.length >= 6 ? 1 : false),
      combineWith: 'OR',
    });
    const hits: Hit[] = [];
    for (const r of results.slice(0, limit)) {
      const doc = this.docs.get(String(r.id));
      if (doc) hits.push({ doc, score: r.score, matched: new Set(r.queryTerms) });
    }
    return hits;
  }

  /** The sentences an answer may quote: the content of a text document, the answer of a Q&A one. */
  static passageSentences(doc: KbDocument, contextChars: number | null): string[] {
    const text = doc.content ?? doc.answer ?? '';
    const seen = contextChars === null ? text : text.slice(0, contextChars);
    const list = sentences(seen);
    // A truncated last sentence is still "seen" up to the cut, like a truncated context window.
    return list.length > 0 ? list : [seen];
  }
}
