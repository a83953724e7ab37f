//! The inline pattern language the papers' examples are written in:
//! `w0 w4 w8 w12 r3`, ranges `w0-7`, repetition `(w0 w1)x3`, `S5` as a sector write
//! (the FAST paper's notation), `freeze`, `unfreeze N`, `revert N` for LTFTL,
//! `#` comments, whitespace or commas between items.

use super::MAX_REQUESTS;
use super::{ParseError, Request};

pub fn parse(text: &str) -> Result<Vec<Request>, ParseError> {
    let mut p = Parser { s: text.as_bytes(), i: 0, line: 1, col: 1 };
    let out = p.items(0)?;
    p.skip_space();
    if p.i < p.s.len() {
        return Err(p.err(format!("unexpected '{}'", p.s[p.i] as char)));
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

    fn items(&mut self, depth: usize) -> Result<Vec<Request>, ParseError> {
        let mut out = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None => return Ok(out),
                Some(b')') => {
                    if depth == 0 {
                        return Err(self.err("')' without a matching '('".into()));
                    }
                    return Ok(out);
                }
                Some(b'(') => {
                    let (line, col) = (self.line, self.col);
                    self.bump();
                    let body = self.items(depth + 1)?;
                    self.skip_space();
                    if self.peek() != Some(b')') {
                        return Err(ParseError { line, column: col, message: "'(' is never closed".into() });
                    }
                    self.bump();
                    if !matches!(self.peek(), Some(b'x' | b'X' | b'*')) {
                        return Err(self.err("expected 'x' and a repeat count after ')', as in (w0 w1)x3".into()));
                    }
                    self.bump();
                    let times = self.number("a repeat count")?;
                    self.push_repeated(&mut out, &body, times)?;
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let (line, col) = (self.line, self.col);
                    let w = self.word();
                    let at = |message: String| ParseError { line, column: col, message };
                    match w.as_str() {
                        "freeze" => out.push(Request::Freeze),
                        "unfreeze" | "revert" => {
                            self.skip_space();
                            let state = self.number("a state id")? as u32;
                            out.push(if w == "revert" { Request::Revert { state } } else { Request::Unfreeze { state } });
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
                            if out.len() as u64 + (hi - lo + 1) > MAX_REQUESTS {
                                return Err(at(format!("pattern expands to more than {MAX_REQUESTS} requests")));
                            }
                            for lpn in lo..=hi {
                                let lpn = lpn as u32;
                                out.push(if w == "r" { Request::Read { lpn } } else { Request::Write { lpn } });
                            }
                        }
                        _ => {
                            return Err(at(format!(
                                "unknown item '{w}': expected w<page>, r<page>, S<sector>, (...)x<n>, freeze, unfreeze <id> or revert <id>"
                            )))
                        }
                    }
                }
                Some(c) => return Err(self.err(format!("unexpected '{}'", c as char))),
            }
        }
    }

    fn push_repeated(&self, out: &mut Vec<Request>, body: &[Request], times: u64) -> Result<(), ParseError> {
        if out.len() as u64 + body.len() as u64 * times > MAX_REQUESTS {
            return Err(self.err(format!("pattern expands to more than {MAX_REQUESTS} requests")));
        }
        for _ in 0..times {
            out.extend_from_slice(body);
        }
        Ok(())
    }
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
    }
}
