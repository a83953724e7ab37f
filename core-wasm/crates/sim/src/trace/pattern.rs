//! The inline pattern language the papers' examples are written in:
//! `w0 w4 w8 w12 r3`, ranges `w0-7`, repetition `(w0 w1)x3`, `S5` as a sector write
//! (the FAST paper's notation), `freeze`, `unfreeze N`, `revert N` for LTFTL,
//! `#` comments, whitespace or commas between items.

use super::MAX_REQUESTS;
use super::{ParseError, Request};

/// Groups nested deeper than this are refused (the parser keeps one small frame per
/// open group on the heap, never on the call stack, so depth costs no recursion).
pub const MAX_DEPTH: usize = 100_000;

pub fn parse(text: &str) -> Result<Vec<Request>, ParseError> {
    parse_with(text, MAX_REQUESTS, |r| r)
}

/// Parses `text` into `T`s made by `make` (the trace parser stores packed u64s), at
/// most `limit` of them. No recursion: open groups are a stack of start offsets into
/// the output, and `(...)xN` repeats the group's output in place, so the work is
/// proportional to the output (`()x4000000000` and 25,000 nested `( )x1` cost nothing).
pub fn parse_with<T: Copy>(text: &str, limit: u64, make: impl Fn(Request) -> T) -> Result<Vec<T>, ParseError> {
    let mut p = Parser { s: text.as_bytes(), i: 0, line: 1, col: 1 };
    let out = p.items(limit, &make)?;
    p.skip_space();
    if p.i < p.s.len() {
        return Err(p.err(format!("unexpected '{}'", p.here())));
    }
    Ok(out)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    col: usize,
}

impl Parser<'_> {
    fn err(&self, message: String) -> ParseError {
        ParseError { line: self.line, column: self.col, message }
    }
    /// The character at the cursor (for messages: a multi-byte one whole).
    fn here(&self) -> char {
        let rest = &self.s[self.i..self.s.len().min(self.i + 4)];
        let n = (1..=rest.len()).find(|&n| std::str::from_utf8(&rest[..n]).is_ok()).unwrap_or(1);
        std::str::from_utf8(&rest[..n]).ok().and_then(|s| s.chars().next()).unwrap_or('\u{fffd}')
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }
    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'#' {
                while self.peek().is_some_and(|c| c != b'\n') {
                    self.bump();
                }
            } else if c.is_ascii_whitespace() || c == b',' || c == b';' {
                self.bump();
            } else {
                break;
            }
        }
    }
    fn number(&mut self, what: &str) -> Result<u64, ParseError> {
        let start = self.i;
        let (line, col) = (self.line, self.col);
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        let digits = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        if digits.is_empty() {
            return Err(self.err(format!("expected {what}")));
        }
        digits.parse::<u32>().map(u64::from).map_err(|_| ParseError {
            line,
            column: col,
            message: format!("{what} '{digits}' is too large"),
        })
    }
    fn word(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.bump();
        }
        String::from_utf8_lossy(&self.s[start..self.i]).to_ascii_lowercase()
    }

    fn items<T: Copy>(&mut self, limit: u64, make: &impl Fn(Request) -> T) -> Result<Vec<T>, ParseError> {
        let mut out: Vec<T> = Vec::new();
        // Open groups: where each one's output starts, and where its '(' is.
        let mut open: Vec<(usize, usize, usize)> = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None => {
                    if let Some(&(_, line, column)) = open.last() {
                        return Err(ParseError { line, column, message: "'(' is never closed".into() });
                    }
                    return Ok(out);
                }
                Some(b')') => {
                    let Some((start, _, _)) = open.pop() else {
                        return Err(self.err("')' without a matching '('".into()));
                    };
                    self.bump();
                    if !matches!(self.peek(), Some(b'x' | b'X' | b'*')) {
                        return Err(self.err("expected 'x' and a repeat count after ')', as in (w0 w1)x3".into()));
                    }
                    self.bump();
                    let (line, col) = (self.line, self.col);
                    let times = self.number("a repeat count")?;
                    let body = (out.len() - start) as u64;
                    if times == 0 {
                        out.truncate(start);
                        continue;
                    }
                    if start as u64 + body.saturating_mul(times) > limit {
                        return Err(ParseError {
                            line,
                            column: col,
                            message: format!("pattern expands to more than {limit} requests"),
                        });
                    }
                    for _ in 1..times {
                        out.extend_from_within(start..start + body as usize);
                    }
                }
                Some(b'(') => {
                    if open.len() >= MAX_DEPTH {
                        return Err(self.err(format!("groups nested more than {MAX_DEPTH} deep")));
                    }
                    open.push((out.len(), self.line, self.col));
                    self.bump();
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let (line, col) = (self.line, self.col);
                    let w = self.word();
                    let at = |message: String| ParseError { line, column: col, message };
                    let one = |out: &mut Vec<T>, r: Request| -> Result<(), ParseError> {
                        if out.len() as u64 >= limit {
                            return Err(at(format!("pattern expands to more than {limit} requests")));
                        }
                        out.push(make(r));
                        Ok(())
                    };
                    match w.as_str() {
                        "freeze" => one(&mut out, Request::Freeze)?,
                        "unfreeze" | "revert" => {
                            self.skip_space();
                            let state = self.number("a state id")? as u32;
                            one(&mut out, if w == "revert" { Request::Revert { state } } else { Request::Unfreeze { state } })?;
                        }
                        "w" | "s" | "r" => {
                            let lo = self.number("a page number")?;
                            let hi = if self.peek() == Some(b'-') {
                                self.bump();
                                let hi = self.number("the end of the range")?;
                                if hi < lo {
                                    return Err(at(format!("range {lo}-{hi} runs backwards")));
                                }
                                hi
                            } else {
                                lo
                            };
                            if out.len() as u64 + (hi - lo + 1) > limit {
                                return Err(at(format!("pattern expands to more than {limit} requests")));
                            }
                            for lpn in lo..=hi {
                                let lpn = lpn as u32;
                                out.push(make(if w == "r" { Request::Read { lpn } } else { Request::Write { lpn } }));
                            }
                        }
                        _ => {
                            return Err(at(format!(
                                "unknown item '{}': expected w<page>, r<page>, S<sector>, (...)x<n>, freeze, unfreeze <id> or revert <id>",
                                clip(&w)
                            )))
                        }
                    }
                }
                Some(_) => return Err(self.err(format!("unexpected '{}'", self.here()))),
            }
        }
    }
}

/// At most 40 characters of a word, for messages.
fn clip(w: &str) -> String {
    let mut s: String = w.chars().take(40).collect();
    if w.chars().count() > 40 {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(lpn: u32) -> Request {
        Request::Write { lpn }
    }

    #[test]
    fn papers_notation() {
        assert_eq!(parse("S0 S4 S8 S12").unwrap(), vec![w(0), w(4), w(8), w(12)]);
        assert_eq!(parse("w0, w4 r3").unwrap(), vec![w(0), w(4), Request::Read { lpn: 3 }]);
    }

    #[test]
    fn repetition_ranges_and_nesting() {
        assert_eq!(parse("(w0 w1)x3").unwrap(), vec![w(0), w(1), w(0), w(1), w(0), w(1)]);
        assert_eq!(parse("w2-4").unwrap(), vec![w(2), w(3), w(4)]);
        assert_eq!(parse("((w0)x2 w1)x2").unwrap(), vec![w(0), w(0), w(1), w(0), w(0), w(1)]);
        assert_eq!(parse("# comment\nfreeze w1 revert 0 unfreeze 2").unwrap().len(), 4);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("w0 w1\n  q7").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("unknown item 'q'"), "{}", e.message);
        let e = parse("(w0 w1").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(parse("(w0)").unwrap_err().message.contains("repeat count"));
        assert!(parse("w").unwrap_err().message.contains("page number"));
        assert!(parse("w0)").unwrap_err().message.contains("without a matching"));
        assert!(parse("w9-3").unwrap_err().message.contains("backwards"));
        assert!(parse("(w0)x5000000000").unwrap_err().message.contains("too large"));
        assert!(parse("((w0 w1)x100000)x1000").unwrap_err().message.contains("more than"));
        assert!(parse("w0 (w1").unwrap_err().message.contains("never closed"));
        assert_eq!(parse("w0 é").unwrap_err().message, "unexpected 'é'");
    }

    #[test]
    fn deep_nesting_is_not_recursion() {
        // Issue 29: 25,000 nested groups overflowed the stack (native abort, wasm RangeError).
        let d = 25_000;
        let text = format!("{}w0{}", "(".repeat(d), ")x1".repeat(d));
        assert_eq!(parse(&text).unwrap(), vec![w(0)]);
        let text = format!("{}w0{}", "(w1 ".repeat(d), ")x1".repeat(d));
        assert_eq!(parse(&text).unwrap().len(), d + 1);
        let e = parse(&"(".repeat(MAX_DEPTH + 1)).unwrap_err();
        assert!(e.message.contains("nested more than 100000 deep"), "{}", e.message);
        assert_eq!(parse("()x5000000000").unwrap_err().message, "a repeat count '5000000000' is too large");
        assert_eq!(parse("()x4000000 w1").unwrap(), vec![w(1)]);
        assert_eq!(parse("(w1)x0 w2").unwrap(), vec![w(2)]);
        assert_eq!(parse_with("(w1 w2)x3", 5, |r| r).unwrap_err().message, "pattern expands to more than 5 requests");
    }
}
