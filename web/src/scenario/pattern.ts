// The inline pattern language the papers' examples are written in:
//   w0 w4 w8 r3 (w1 w2)x3
// `wN` writes logical page N, `rN` reads it, `( ... )xK` repeats a group K times.
// The Rust core parses it authoritatively; this client-side check only gives fast,
// friendly feedback before a Session is created.

export interface PatternRequest {
  op: 'r' | 'w';
  lpn: number;
}

export class PatternError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'PatternError';
  }
}

const MAX_EXPANDED = 1_000_000;

type Token =
  | { t: 'req'; op: 'r' | 'w'; lpn: number; pos: number }
  | { t: 'open'; pos: number }
  | { t: 'close'; times: number; pos: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s+|,|([rRwW])(\d+)|(\()|(\))(?:\s*[xX×*]\s*(\d+))?|(.)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) {
    const pos = m.index;
    if (m[1]) tokens.push({ t: 'req', op: m[1].toLowerCase() as 'r' | 'w', lpn: Number(m[2]), pos });
    else if (m[3]) tokens.push({ t: 'open', pos });
    else if (m[4]) {
      if (m[5] === undefined) throw new PatternError(`")" at ${pos + 1} needs a repeat count, like ")x3"`, pos);
      tokens.push({ t: 'close', times: Number(m[5]), pos });
    } else if (m[6] !== undefined) {
      throw new PatternError(`unexpected "${m[6]}" at ${pos + 1}: expected w<page>, r<page>, "(" or ")x<count>"`, pos);
    }
  }
  return tokens;
}

/** Expand a pattern into its requests; throws PatternError with a readable message. */
export function parsePattern(text: string): PatternRequest[] {
  const tokens = tokenize(text);
  const stack: { items: PatternRequest[]; pos: number }[] = [{ items: [], pos: 0 }];
  for (const tok of tokens) {
    const top = stack[stack.length - 1];
    if (tok.t === 'req') top.items.push({ op: tok.op, lpn: tok.lpn });
    else if (tok.t === 'open') stack.push({ items: [], pos: tok.pos });
    else {
      if (stack.length === 1) throw new PatternError(`")" at ${tok.pos + 1} has no matching "("`, tok.pos);
      stack.pop();
      const outer = stack[stack.length - 1];
      if (outer.items.length + top.items.length * tok.times > MAX_EXPANDED) {
        throw new PatternError(`pattern expands to more than ${MAX_EXPANDED} requests`, tok.pos);
      }
      for (let i = 0; i < tok.times; i++) outer.items.push(...top.items);
    }
  }
  if (stack.length > 1) {
    const open = stack[stack.length - 1];
    throw new PatternError(`"(" at ${open.pos + 1} is never closed`, open.pos);
  }
  if (stack[0].items.length === 0) throw new PatternError('the pattern has no requests', 0);
  return stack[0].items;
}
