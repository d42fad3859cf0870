/**
 * Opposites a careful reader notices: a question about the "largest" or "private" thing is not answered by a
 * passage about the "smallest" or "public" one, though they share every other word. Index terms (stemmed), both
 * directions, on lower-case words (not index terms: "more", "most", "before" and "after" are stop words there).
 */
import { tokens } from './tokenize';

const PAIRS =
  'first last|largest smallest|biggest smallest|most least|more less|more fewer|most fewest|highest lowest|higher lower|' +
  'high low|increase decrease|increased decreased|before after|earliest latest|earlier later|early late|major minor|' +
  'maximum minimum|win lose|won lost|start end|began ended|north south|east west|northern southern|eastern western|' +
  'rise fall|rose fell|longest shortest|longer shorter|oldest newest|older newer|old new|best worst|better worse|' +
  'strong weak|strongest weakest|large small|big small|positive negative|accept reject|accepted rejected|' +
  'success failure|successful unsuccessful|allow forbid|allowed forbidden|allowed banned|legal illegal|public private|' +
  'inside outside|internal external|upper lower|top bottom|above below|rich poor|wealthy poor|open closed|' +
  'opened closed|import export|imported exported|gain loss|gained lost|domestic foreign|ancient modern|birth death|' +
  'born died|same different|true false|full empty|heavy light|hot cold|warm cool|fast slow|always never|' +
  'agree disagree|support oppose|supported opposed|friend enemy|ally enemy|victory defeat|male female|men women|' +
  'father mother|son daughter|king queen|husband wife|increase reduce|increasing decreasing|rising falling|' +
  'add remove|added removed|include exclude|included excluded|permit prohibit|buy sell|bought sold|send receive|' +
  'sent received|lend borrow|succeeded failed|create destroy|created destroyed|appear disappear|enter exit|' +
  'arrive depart|input output|inner outer|majority minority|expensive cheap|greater smaller|greatest least|' +
  'wider narrower|widest narrowest|deep shallow|thick thin|younger older|youngest oldest|upstream downstream|' +
  'summer winter|day night|dry wet|natural artificial|direct indirect|formal informal|official unofficial|' +
  'military civilian|urban rural|catholic protestant|conservative liberal|democratic republican|northeast southwest|' +
  'northwest southeast|lost found|ban allow|defeated won|lower raise|lowered raised|strength weakness|lesser greater|' +
  'lesser larger|behind front|offense defense|offensive defensive|attack defend|attacked defended|help hurt|peace war|' +
  'love hate|rise decline|growth decline|simple complex|easy difficult|easier harder|common rare|stop start|' +
  'stopped started|cheap costly|cheaper costlier|least greatest|weaker stronger|ally opponent|allies enemies|' +
  'supporters opponents|support opposition';

/** Words a passage uses for the question's word: "an earlier version" answers "an older version". */
const ALIKE =
  'old previous|older earlier|older previous|older prior|older former|oldest earliest|oldest first|new recent|' +
  'newer later|newer recent|newest latest|newest recent|large big|larger bigger|largest biggest|small little|' +
  'start begin|started began|end finish|ended finished|high tall|higher taller|highest tallest|fast quick|' +
  'allowed permitted|forbidden prohibited|banned prohibited|win beat|won defeated';

function pairs(list: string): ReadonlyMap<string, ReadonlySet<string>> {
  const map = new Map<string, Set<string>>();
  const add = (a: string, b: string): void => {
    const set = map.get(a) ?? new Set<string>();
    set.add(b);
    map.set(a, set);
  };
  for (const pair of list.split('|')) {
    const [a, b] = pair.split(' ');
    if (!a || !b) continue;
    add(a, b);
    add(b, a);
  }
  return map;
}

const OPPOSITES = pairs(PAIRS);

/** The opposites of a lower-case word ("smallest" for "largest"). */
export const oppositesOf = (word: string): ReadonlySet<string> | undefined => OPPOSITES.get(word);

const SIMILAR = pairs(ALIKE);

const lowerWords = (text: string): Set<string> => new Set(tokens(text).map((w) => w.toLowerCase()));

/**
 * A word of the question the sentence does not use, whose opposite it does ("largest" asked, "smallest" stated),
 * unless the document uses the word or one like it elsewhere (it may answer there).
 */
export function statedOpposite(question: string, sentence: string, documentText: string): { asked: string; stated: string } | undefined {
  const asked = lowerWords(question);
  const stated = lowerWords(sentence);
  let document: Set<string> | undefined;
  for (const word of asked) {
    if (stated.has(word) || !OPPOSITES.has(word)) continue;
    document ??= lowerWords(documentText);
    if (document.has(word) || [...(SIMILAR.get(word) ?? [])].some((w) => document?.has(w))) continue;
    for (const other of OPPOSITES.get(word) ?? []) if (stated.has(other) && !asked.has(other)) return { asked: word, stated: other };
  }
  return undefined;
}
