//! Shared helpers of the format files: splitting a line into fields, number parsing
//! with errors that name the column, and the record a line becomes.

/// Fields of a line kept (columns further right cannot be mapped).
pub(crate) const MAX_FIELDS: usize = 32;

pub(crate) fn is_comment(t: &[u8]) -> bool {
    t.first() == Some(&b'#')
}

/// Trims spaces and control bytes (the whitespace splitter's separators too).
pub(crate) fn trim(b: &[u8]) -> (&[u8], usize) {
    let start = b.iter().position(|&c| c > b' ').unwrap_or(b.len());
    let end = b.iter().rposition(|&c| c > b' ').map(|e| e + 1).unwrap_or(start);
    (&b[start..end.max(start)], start)
}

/// The fields of a line with their 1-based columns, at most `N` kept (no allocation per
/// line: parsing runs at hundreds of MB/s). A format with a fixed number of columns keeps
/// a few more than it reads (`fields_n`): the array is set up for every line, and 32 of
/// them cost more than splitting a short line (issue 37, callgrind).
pub(crate) struct Fields<'a, const N: usize = MAX_FIELDS> {
    f: [(usize, &'a str); N],
    n: usize,
    /// Fields in the line, including those beyond MAX_FIELDS.
    pub(crate) total: usize,
}

impl<'a, const N: usize> std::ops::Deref for Fields<'a, N> {
    type Target = [(usize, &'a str)];
    fn deref(&self) -> &Self::Target {
        &self.f[..self.n]
    }
}

impl<'a, const N: usize> Fields<'a, N> {
    fn push(&mut self, col: usize, s: &'a str) {
        if self.n < N {
            self.f[self.n] = (col, s);
            self.n += 1;
        }
        self.total += 1;
    }
}

/// Fields of a line: split by `delim` (each trimmed), or by runs of whitespace when
/// `delim` is None.
pub(crate) fn fields(line: &str, delim: Option<u8>) -> Fields<'_> {
    fields_n(line, delim)
}

/// As `fields`, keeping at most `N` fields (`total` still counts them all).
pub(crate) fn fields_n<const N: usize>(line: &str, delim: Option<u8>) -> Fields<'_, N> {
    let b = line.as_bytes();
    let mut out = Fields { f: [(0, ""); N], n: 0, total: 0 };
    match delim {
        Some(d) => {
            let mut start = 0;
            loop {
                let end = find_byte(b, start, d);
                let (t, off) = trim(&b[start..end]);
                // Trimming ASCII whitespace keeps char boundaries.
                out.push(start + off + 1, &line[start + off..start + off + t.len()]);
                if end == b.len() {
                    break;
                }
                start = end + 1;
            }
        }
        None => {
            // Space, tab and the other control bytes separate fields (the text was
            // checked not to be binary).
            let mut i = 0;
            while i < b.len() {
                while i < b.len() && b[i] <= b' ' {
                    i += 1;
                }
                let s = i;
                while i < b.len() && b[i] > b' ' {
                    i += 1;
                }
                if i > s {
                    out.push(s + 1, &line[s..i]);
                }
            }
        }
    }
    out
}

/// The first `d` in `b[from..]`, else `b.len()`: eight bytes a word (issue 37: a byte
/// loop per field was a third of the MSR parse thread; `memchr` per field costs more in
/// calls on fields of a few bytes). A byte of `w ^ d` is zero where `d` is; the test below
/// is exact per byte (no carry crosses a byte: `(x & 0x7F) + 0x7F` is at most 0xFE).
#[inline(always)]
fn find_byte(b: &[u8], from: usize, d: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut i = from;
    while let Some(w) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(w.try_into().expect("8 bytes")) ^ (d as u64 * ONES);
        let nonzero = (((x & (0x7F * ONES)) + 0x7F * ONES) | x) & (0x80 * ONES);
        let zero = !nonzero & (0x80 * ONES);
        if zero != 0 {
            return i + (zero.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    b[i..].iter().position(|&c| c == d).map_or(b.len(), |p| i + p)
}

/// A decimal number (what timestamps are): a fast check for the usual digits and
/// one dot, the full float grammar otherwise.
pub(crate) fn is_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut digits = false;
    let mut dot = false;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => digits = true,
            b'.' if !dot => dot = true,
            b'-' | b'+' if i == 0 => {}
            _ => return !s.is_empty() && s.parse::<f64>().is_ok_and(|f| f.is_finite()),
        }
    }
    digits
}

pub(crate) fn is_rw(s: &str) -> bool {
    s.eq_ignore_ascii_case("r") || s.eq_ignore_ascii_case("w")
}

pub(crate) fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())
}

/// The delimiter of a CSV-like line: comma, tab, semicolon, else whitespace.
pub(crate) fn csv_delim(line: &str) -> Option<u8> {
    if line.contains(',') {
        Some(b',')
    } else if line.contains('\t') {
        Some(b'\t')
    } else if line.contains(';') {
        Some(b';')
    } else {
        None
    }
}

/// A whole number; errors name the column.
pub(crate) fn parse_u64(col: usize, s: &str, what: &str) -> Result<u64, (usize, String)> {
    let b = s.as_bytes();
    if !b.is_empty() && b.len() <= 19 {
        // One pass: at most 19 digits cannot overflow.
        let mut v = 0u64;
        let mut ok = true;
        for &c in b {
            let d = c.wrapping_sub(b'0');
            ok &= d < 10;
            v = v.wrapping_mul(10).wrapping_add(d as u64);
        }
        if ok {
            return Ok(v);
        }
    }
    if s.is_empty() {
        return Err((col, format!("expected {what}, found nothing")));
    }
    s.parse::<u64>().map_err(|_| {
        if s.bytes().all(|c| c.is_ascii_digit()) {
            (col, format!("{what} '{s}' is too large"))
        } else {
            (col, format!("expected {what} (a whole number), found '{}'", clip(s)))
        }
    })
}

pub(crate) fn parse_num(col: usize, s: &str, what: &str) -> Result<(), (usize, String)> {
    if is_number(s) {
        Ok(())
    } else {
        Err((col, format!("expected {what} (a number), found '{}'", clip(s))))
    }
}

/// A timestamp (any decimal number) in the trace's unit, as billionths of the unit,
/// exactly for plain decimals (an MSR FILETIME has 18 digits: an f64 would round it
/// by tens of ticks, more than the gap between two requests).
pub(crate) fn parse_time(col: usize, s: &str, what: &str) -> Result<i128, (usize, String)> {
    if let Some(v) = plain_time(s.as_bytes()) {
        return Ok(v);
    }
    parse_num(col, s, what)?;
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let all_digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
    let digits = |t: &str| !t.is_empty() && t.len() <= 30 && all_digits(t);
    let v = if int.len() <= 18 && all_digits(int) && all_digits(frac) {
        // The usual timestamp: up to 18 integer digits fit a u64, so no 128-bit parse or
        // multiply per digit (issue 37: they were a tenth of parsing a DiskSim trace).
        let whole = int.bytes().fold(0u64, |a, c| a * 10 + (c - b'0') as u64);
        let mut f9: u64 = 0;
        for c in frac.bytes().chain(std::iter::repeat(b'0')).take(9) {
            f9 = f9 * 10 + (c - b'0') as u64;
        }
        whole as i128 * 1_000_000_000 + f9 as i128
    } else if (digits(int) || int.is_empty()) && (frac.is_empty() || frac.bytes().all(|c| c.is_ascii_digit())) {
        let whole: i128 = if int.is_empty() { 0 } else { int.parse().unwrap_or(0) };
        let mut f9: i128 = 0;
        for c in frac.bytes().chain(std::iter::repeat(b'0')).take(9) {
            f9 = f9 * 10 + (c - b'0') as i128;
        }
        whole * 1_000_000_000 + f9
    } else {
        // Exponent notation and other float forms: as f64.
        let f: f64 = body.parse().map_err(|_| (col, format!("expected {what} (a number), found '{}'", clip(s))))?;
        (f * 1e9) as i128
    };
    Ok(if neg { -v } else { v })
}

/// The usual timestamp in one pass (issue 37: the float-grammar check, the split at the
/// dot and the digit loops cost a quarter of parsing a DiskSim line): unsigned, up to 18
/// integer digits, an optional dot and fraction digits, at least one digit; billionths as
/// `parse_time` gives them (fraction digits past the ninth cut). None: anything else, for
/// the general path.
#[inline]
pub(crate) fn plain_time(b: &[u8]) -> Option<i128> {
    let mut i = 0;
    let mut whole = 0u64;
    while i < b.len() && b[i].is_ascii_digit() {
        whole = whole.wrapping_mul(10).wrapping_add((b[i] - b'0') as u64);
        i += 1;
    }
    let int_digits = i;
    if int_digits > 18 {
        return None;
    }
    let mut f9 = 0u64;
    let mut frac_digits = 0;
    if i < b.len() {
        if b[i] != b'.' {
            return None;
        }
        i += 1;
        while i < b.len() {
            let d = b[i].wrapping_sub(b'0');
            if d >= 10 {
                return None;
            }
            if frac_digits < 9 {
                f9 = f9 * 10 + d as u64;
            }
            frac_digits += 1;
            i += 1;
        }
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    Some(billionths(whole, int_digits, f9, frac_digits))
}

/// `whole.f9` in billionths, `f9` holding the first (at most 9) of `frac_digits` fraction
/// digits (`plain_time`, DiskSim's one-pass reader).
#[inline(always)]
pub(crate) fn billionths(whole: u64, int_digits: usize, f9: u64, frac_digits: usize) -> i128 {
    const SCALE: [u64; 10] = [1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];
    let f9 = f9 * SCALE[frac_digits.min(9)];
    // Up to 10 integer digits the billionths fit a u64 (no 128-bit multiply: a libcall in wasm).
    if int_digits <= 10 {
        (whole * 1_000_000_000 + f9) as i128
    } else {
        whole as i128 * 1_000_000_000 + f9 as i128
    }
}

pub(crate) fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// One record: operation, byte offset, byte length, device, and its timestamp in
/// billionths of the format's time unit (`TraceFormat::time_unit`) when it has one.
pub(crate) struct Rec<'a> {
    pub(crate) write: bool,
    pub(crate) offset: u64,
    pub(crate) bytes: u64,
    pub(crate) device: Option<&'a str>,
    pub(crate) time: Option<i128>,
}

/// What a binary record reads as: `(write, first page, last page, time)`, None to skip
/// it, or an error `(column, message)`.
pub(crate) type RecordResult = Result<Option<(bool, u64, u64, Option<i128>)>, (usize, String)>;

pub(crate) type LineResult<'a> = Result<Option<Rec<'a>>, (usize, String)>;

/// At least `n` fields, else an error at the end of the line.
pub(crate) fn need<const N: usize>(
    f: &Fields<N>,
    n: usize,
    line_len: usize,
    what: &str,
) -> Result<(), (usize, String)> {
    if f.total < n {
        let col = f.last().map(|x| x.0 + x.1.len()).unwrap_or(1).min(line_len + 1);
        return Err((col, format!("expected {n} fields ({what}), found {}", f.total)));
    }
    Ok(())
}

pub(crate) fn line_col(b: &[u8], at: usize) -> (usize, usize) {
    let before = &b[..at.min(b.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = at - before.iter().rposition(|&c| c == b'\n').map(|p| p + 1).unwrap_or(0) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::parse_time;

    /// `find_byte` finds what a byte search finds, at every start, in words and tails.
    #[test]
    fn find_byte_is_a_byte_search() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..40 {
            for _ in 0..200 {
                let b: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        [b',', b'\t', b'a', 0x2d, 0xac, 0x80, 0x00, 0x7f, 0xff, 0x01][(x % 10) as usize]
                    })
                    .collect();
                for d in [b',', b'\t', 0x80, 0x00, 0xff] {
                    for from in 0..=len {
                        let want = b[from..].iter().position(|&c| c == d).map_or(len, |p| from + p);
                        assert_eq!(super::find_byte(&b, from, d), want, "{b:?} from {from} for {d}");
                    }
                }
            }
        }
    }

    /// Exact billionths on both sides of the u64 fast path (18 integer digits).
    #[test]
    fn parse_time_is_exact_in_and_beyond_the_fast_path() {
        let t = |s: &str| parse_time(1, s, "the time").unwrap();
        assert_eq!(t("123.456"), 123_456_000_000);
        assert_eq!(t(".5"), 500_000_000);
        assert_eq!(t("7."), 7_000_000_000);
        assert_eq!(t("-2.25"), -2_250_000_000);
        assert_eq!(t("0.0000000019"), 1, "digits past the ninth are cut, not rounded");
        assert_eq!(t("999999999999999999.999999999"), 999_999_999_999_999_999_999_999_999);
        assert_eq!(t("1234567890123456789.5"), 1_234_567_890_123_456_789_500_000_000);
        assert_eq!(t("1e3"), 1_000_000_000_000);
        assert!(parse_time(3, "12x", "the time").is_err());
        for bad in [".", "", "1.2.3", "1..2", "+", "-.", "1 2"] {
            assert!(parse_time(3, bad, "the time").is_err(), "{bad:?}");
        }
        assert_eq!(t("0"), 0);
        assert_eq!(t("+1.5"), 1_500_000_000);
        assert_eq!(t("000123.000000001"), 123_000_000_001);
        assert_eq!(t("12.3456789012"), 12_345_678_901);
    }

    /// The one-pass reading agrees with the general one wherever it answers.
    #[test]
    fn plain_time_agrees_with_the_general_path() {
        let general = |s: &str| -> i128 {
            let (int, frac) = s.split_once('.').unwrap_or((s, ""));
            let whole: i128 = if int.is_empty() { 0 } else { int.parse().unwrap() };
            let mut f9: i128 = 0;
            for c in frac.bytes().chain(std::iter::repeat(b'0')).take(9) {
                f9 = f9 * 10 + (c - b'0') as i128;
            }
            whole * 1_000_000_000 + f9
        };
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let int = (x % 20) as usize;
            let frac = ((x >> 8) % 14) as usize;
            let digits: String = (0..int + frac).map(|k| char::from(b'0' + ((x >> (k % 60)) % 10) as u8)).collect();
            let s = match (x >> 20) % 3 {
                0 => digits[..int].to_string(),
                _ => format!("{}.{}", &digits[..int], &digits[int..]),
            };
            match super::plain_time(s.as_bytes()) {
                Some(v) => assert_eq!(v, general(&s), "{s}"),
                None => assert!(int > 18 || s == "." || s.is_empty(), "{s} left to the general path"),
            }
        }
    }
}
