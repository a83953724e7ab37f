//! The DiskSim / MQSim ASCII trace format.

use super::helpers::{clip, fields_n, is_number, need, parse_time, parse_u64, LineResult, Rec};
use super::{Cx, Entry, Format, LineReader, LineView, TimeUnit, TraceFormat};

mod classes;

pub(super) const ENTRY: Entry = Entry {
    format: Format::Disksim,
    name: "disksim",
    aliases: &["mqsim", "ascii"],
    description: "DiskSim/MQSim ASCII: arrival_time device lba size_in_sectors type (0 write, 1 read)",
    detect_rank: Some(80),
    imp: &DisksimFormat,
};

struct DisksimFormat;

impl TraceFormat for DisksimFormat {
    /// DiskSim: milliseconds (MQSim's traces use nanoseconds: time_unit ns).
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::Ms)
    }
    fn detect(&self, v: &LineView) -> bool {
        v.delimited.is_none() && v.ws.len() >= 5 && v.ws[..5].iter().all(|f| is_number(f.1))
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(Disksim))
    }
}

#[derive(Default)]
struct Disksim;

impl LineReader for Disksim {
    /// `arrival_time device lba size_in_sectors type` (type 0 write, 1 read).
    fn read<'a>(&mut self, line: &'a str, cx: &mut Cx<'_>) -> LineResult<'a> {
        // Five columns, and a sixth to refuse.
        let f = fields_n::<6>(line, None);
        need(&f, 5, line.len(), "arrival_time device lba size_in_sectors type")?;
        let time = parse_time(f[0].0, f[0].1, "the arrival time")?;
        parse_u64(f[1].0, f[1].1, "the device number")?;
        let offset = cx.sectors(f[2].0, f[2].1, "the LBA in sectors")?;
        let bytes = cx.sectors(f[3].0, f[3].1, "the size in sectors")?;
        let write = match f[4].1 {
            "0" => true,
            "1" => false,
            o => return Err((f[4].0, format!("expected the type 0 (write) or 1 (read), found '{}'", clip(o)))),
        };
        if let Some(x) = f.get(5) {
            return Err((x.0, format!("expected the end of the line after 5 fields, found '{}'", clip(x.1))));
        }
        Ok(Some(Rec { write, offset, bytes, device: Some(f[1].1), time: Some(time) }))
    }
}

/// A DiskSim line in its usual form, read by `fast_line`.
pub(super) struct FastLine<'a> {
    pub time: i128,
    /// The device number's digits (ASCII).
    pub device: &'a [u8],
    /// The LBA and the size, in bytes.
    pub offset: u64,
    pub bytes: u64,
    pub write: bool,
}

/// The usual DiskSim line in one pass over its bytes, without splitting it into fields
/// first (issue 37: the general path cost about 1,300 instructions a line): blanks
/// (space or tab) around five fields, a plain timestamp (`plain_time`'s form, read in the
/// same pass), then device, LBA and size of 1 to 19 digits and the type 0 or 1, an
/// optional CR. The line ends at the first `\n` or at the end of `b`: the record and the
/// index of that end (so the parser needs no separate search for the line's end). None for
/// anything else (also a size or LBA that overflows in bytes): the general path
/// (`Disksim::read`) reads the line then, and says what is wrong with it. Where it
/// answers, it answers what the general path does.
#[inline(always)]
pub(super) fn fast_line(b: &[u8], sector_bytes: u64) -> Option<(FastLine<'_>, usize)> {
    usual_line(b, sector_bytes).or_else(|| cursor_line(b, sector_bytes))
}

/// The commonest form first, a word of 8 bytes per field (issue 37): no leading blank,
/// fields of at most 7 digits (a timestamp of at most 7 before and 7 after its dot) each
/// followed by one space, the type, then the newline (or CR LF). The byte after a field's
/// digits is in the word already read. None for anything else (`cursor_line` reads it then).
#[inline(always)]
fn usual_line(b: &[u8], sector_bytes: u64) -> Option<(FastLine<'_>, usize)> {
    let (u, end) = usual(b, sector_bytes)?;
    let device = &b[u.dev_at..u.dev_at + u.dev_len];
    Some((FastLine { time: u.time(), device, offset: u.offset, bytes: u.bytes, write: u.write }, end))
}

/// A usual line's fields as read (`usual`): the timestamp not yet in billionths (a parse
/// that drops the times needs only the first record's).
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct Usual {
    /// The timestamp's words of digits (integer part, fraction) and their digit counts:
    /// converted only when the time is asked for (a closed-model parse keeps none).
    whole: (u64, usize),
    frac: (u64, usize),
    /// The device's digits, the last in the top byte and zeros below the first: equal
    /// words are equal device names (a digit is never a zero byte).
    pub dev: u64,
    pub dev_at: usize,
    pub dev_len: usize,
    /// The LBA and the size, in bytes.
    pub offset: u64,
    pub bytes: u64,
    pub write: bool,
}

impl Usual {
    /// The arrival time in billionths.
    #[inline(always)]
    pub fn time(&self) -> i128 {
        let ((w, int_digits), (f, frac_digits)) = (self.whole, self.frac);
        super::helpers::billionths(digits_value(w, int_digits), int_digits, digits_value(f, frac_digits), frac_digits)
    }
}

/// `usual_line`'s reading: the fields and the index of the line's newline. One field
/// reader (`usual_in`) for both: a text shorter than the window is read from a zero-padded
/// copy. A zero byte is no digit, blank, dot or newline, so a line the copy answers for
/// ends in the text (its newline is in it), and what it reads is the text's.
#[inline(always)]
pub(super) fn usual(b: &[u8], sector_bytes: u64) -> Option<(Usual, usize)> {
    match b.get(..WINDOW) {
        Some(w) => usual_in(w.try_into().expect("a window"), sector_bytes),
        None => usual_in(&padded(b), sector_bytes),
    }
}

/// The last bytes of a text (fewer than `WINDOW`) in a window, zeros after them.
#[cold]
fn padded(b: &[u8]) -> [u8; WINDOW] {
    let mut w = [0; WINDOW];
    w[..b.len()].copy_from_slice(b);
    w
}

/// Bytes of text `usual_in` reads a line from: a usual line (at most 43 bytes with its CR
/// LF) lies in the first 48, and a word at an index masked to 63 lies in the 72, so no
/// read of a field needs a bounds check of its own.
pub(super) const WINDOW: usize = 72;

/// `usual` for the bulk reader (issue 37 item 2), on a window that starts at the line and
/// holds it whole: one bounds check a line (the window's) instead of one a field; a field
/// of 8 digits refused by its separator check (the byte after 8 is read as the first);
/// fewer operations a digit test (`digits_of`); and the sizes in bytes unchecked (7 digits
/// times a sector size of 32 bits cannot overflow). `usual` reads with it too.
#[inline(always)]
pub(super) fn usual_in(w: &[u8; WINDOW], sector: u64) -> Option<(Usual, usize)> {
    match classes::usual_classes(w, sector) {
        Some(answer) => answer,
        None => usual_words(w, sector),
    }
}

/// `usual_in` a field at a time: each field's digits counted in the word at its start
/// (the lines `classes` leaves: longer than 32 bytes, or no masks on the target).
#[inline(always)]
fn usual_words(w: &[u8; WINDOW], sector: u64) -> Option<(Usual, usize)> {
    let whole = word_at(w, 0);
    let int_digits = digits_of(whole).1;
    let mut sep = byte_after(whole, int_digits);
    let mut i = int_digits;
    let (mut frac, mut frac_digits) = (0, 0);
    if sep == b'.' {
        frac = word_at(w, i + 1);
        frac_digits = digits_of(frac).1;
        sep = byte_after(frac, frac_digits);
        i += 1 + frac_digits;
    }
    if int_digits + frac_digits == 0 || sep != b' ' {
        return None;
    }
    i += 1;
    let d = word_at(w, i);
    let dev_len = digits_of(d).1;
    if dev_len == 0 || byte_after(d, dev_len) != b' ' {
        return None;
    }
    let (dev, dev_at) = (d << (64 - 8 * dev_len), i);
    i += dev_len + 1;
    let mut next = || {
        let (x, n) = digits_of(word_at(w, i));
        i += n + 1;
        (n > 0 && byte_after(x, n) == b' '.wrapping_sub(b'0')).then(|| value_of(x, n))
    };
    let offset = next()? * sector;
    let bytes = next()? * sector;
    // The type, then LF or CR LF (the CR is cut as the general path cuts it).
    let t = word_at(w, i);
    let write = match t as u8 {
        b'0' => true,
        b'1' => false,
        _ => return None,
    };
    let end = match (t >> 8) as u16 {
        x if x as u8 == b'\n' => i + 1,
        0x0A0D => i + 2,
        _ => return None,
    };
    let (whole, frac) = ((whole, int_digits), (frac, frac_digits));
    Some((Usual { whole, frac, dev, dev_at, dev_len, offset, bytes, write }, end))
}

/// The 8 bytes of the window at `i` (masked to 63, so in the window) as a word.
#[inline(always)]
fn word_at(w: &[u8; WINDOW], i: usize) -> u64 {
    let i = i & 63;
    u64::from_le_bytes(w[i..i + 8].try_into().expect("8 bytes"))
}

/// The byte after the first `n` of `w` (n <= 8; for 8, the first byte).
#[inline(always)]
fn byte_after(w: u64, n: usize) -> u8 {
    w.wrapping_shr(8 * n as u32) as u8
}

/// Of the word `w`: its bytes minus '0' (exact up to the first byte that is not a digit;
/// a borrow only reaches the bytes after it) and how many digits it starts with (8 for
/// all). A byte minus '0' is a digit's when it is below 10: then neither it nor it plus
/// 0x76 has its top bit set (four operations; `digit_count` takes six).
#[inline(always)]
fn digits_of(w: u64) -> (u64, usize) {
    let x = w.wrapping_sub(0x30 * ONES);
    let not_digit = (x.wrapping_add(0x76 * ONES) | x) & (0x80 * ONES);
    (x, (not_digit.trailing_zeros() / 8) as usize)
}

/// The value of the `n` (1 to 7) digits `x` starts with (`digits_of`'s bytes minus '0').
#[inline(always)]
fn value_of(x: u64, n: usize) -> u64 {
    // The n digits into the top bytes, zeros below; then pairs, quads and the eight.
    let d = x << (64 - 8 * n);
    let d = (d.wrapping_mul(10 << 8 | 1) >> 8) & 0x00FF_00FF_00FF_00FF;
    let d = (d.wrapping_mul(100 << 16 | 1) >> 16) & 0x0000_FFFF_0000_FFFF;
    d.wrapping_mul(10_000 << 32 | 1) >> 32
}

/// `fast_line` for the forms `usual_line` leaves: a byte at a time between the fields.
#[inline(never)]
fn cursor_line(b: &[u8], sector_bytes: u64) -> Option<(FastLine<'_>, usize)> {
    let mut c = Cursor { b, i: 0 };
    c.blanks();
    let time = c.time()?;
    c.blanks();
    let d = c.i;
    c.digits()?;
    let device = &b[d..c.i];
    c.blanks();
    let offset = c.digits()?.checked_mul(sector_bytes)?;
    c.blanks();
    let bytes = c.digits()?.checked_mul(sector_bytes)?;
    c.blanks();
    let write = match b.get(c.i) {
        Some(b'0') => true,
        Some(b'1') => false,
        _ => return None,
    };
    c.i += 1;
    // Only blanks and CRs after the type (the general path trims them). A field ends at a
    // blank: anything else in the line (a CR inside it too) sends it to the general path.
    c.skip_while(|x| x == b' ' || x == b'\t' || x == b'\r');
    match b.get(c.i) {
        None | Some(b'\n') => Some((FastLine { time, device, offset, bytes, write }, c.i)),
        _ => None,
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

/// The byte ends a field: a blank, the line's end or the text's.
#[inline(always)]
fn ends_field(x: Option<&u8>) -> bool {
    matches!(x, None | Some(b' ' | b'\t' | b'\n'))
}

const ONES: u64 = 0x0101_0101_0101_0101;

/// How many of the 8 bytes `w` (the first in the low byte) are ASCII digits before the
/// first other byte, and their value: a few word operations instead of a loop of a
/// compare, a multiply and a bounds check per digit (issue 37: the digit loops were most
/// of `fast_line`'s 450 instructions a line). A byte is a digit when its high nibble is 3
/// and so is that of the byte plus 6; a carry or borrow out of a byte only reaches the
/// bytes after it, which are past the first non-digit and not used.
#[inline(always)]
fn swar_digits(w: u64) -> (u64, usize) {
    let n = digit_count(w);
    (digits_value(w, n), n)
}

/// `swar_digits`'s count alone.
#[inline(always)]
fn digit_count(w: u64) -> usize {
    let hi = 0xF0 * ONES;
    let not_digit = ((w & hi) ^ (0x30 * ONES)) | ((w.wrapping_add(6 * ONES) & hi) ^ (0x30 * ONES));
    (not_digit.trailing_zeros() / 8) as usize
}

/// `swar_digits`'s value of the `n` digits `w` starts with (`digit_count`).
#[inline(always)]
fn digits_value(w: u64, n: usize) -> u64 {
    if n == 0 {
        return 0;
    }
    // The n digits into the top bytes (the last digit in the top byte), zeros below; then
    // pairs, quads and the eight combined (the usual SWAR conversion).
    let d = (w.wrapping_sub(0x30 * ONES) & (0x0F * ONES)) << (64 - 8 * n);
    let d = (d.wrapping_mul(10 << 8 | 1) >> 8) & 0x00FF_00FF_00FF_00FF;
    let d = (d.wrapping_mul(100 << 16 | 1) >> 16) & 0x0000_FFFF_0000_FFFF;
    d.wrapping_mul(10_000 << 32 | 1) >> 32
}

impl Cursor<'_> {
    #[inline(always)]
    fn skip_while(&mut self, f: impl Fn(u8) -> bool) {
        while let Some(&x) = self.b.get(self.i) {
            if !f(x) {
                break;
            }
            self.i += 1;
        }
    }
    /// At least one blank (the first field may start without).
    #[inline(always)]
    fn blanks(&mut self) {
        self.skip_while(|x| x == b' ' || x == b'\t');
    }
    /// Digits from here: their value (wrapping past 19 digits) and how many. Eight bytes at
    /// a time while eight remain (always, but near the end of the text).
    #[inline(always)]
    fn run_of_digits(&mut self) -> (u64, usize) {
        let s = self.i;
        let mut v = 0u64;
        while let Some(w) = self.b.get(self.i..self.i + 8) {
            let (x, n) = swar_digits(u64::from_le_bytes(w.try_into().expect("8 bytes")));
            v = v.wrapping_mul(POW10[n]).wrapping_add(x);
            self.i += n;
            if n < 8 {
                return (v, self.i - s);
            }
        }
        while let Some(&x) = self.b.get(self.i) {
            let d = x.wrapping_sub(b'0');
            if d >= 10 {
                break;
            }
            v = v.wrapping_mul(10).wrapping_add(d as u64);
            self.i += 1;
        }
        (v, self.i - s)
    }
    /// 1 to 19 digits (no overflow) followed by a blank or the end (a field of its own).
    #[inline(always)]
    fn digits(&mut self) -> Option<u64> {
        let (v, n) = self.run_of_digits();
        (n > 0 && n <= 19 && self.b.get(self.i).is_some_and(|&x| x == b' ' || x == b'\t')).then_some(v)
    }
    /// A plain timestamp in one pass, as `plain_time` reads it: up to 18 integer digits, an
    /// optional dot and fraction digits (past the ninth cut), at least one digit, then a
    /// blank; in billionths.
    #[inline(always)]
    fn time(&mut self) -> Option<i128> {
        let (whole, int_digits) = self.run_of_digits();
        if int_digits > 18 {
            return None;
        }
        let (mut f9, mut frac_digits) = (0u64, 0usize);
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            let s = self.i;
            let (v, n) = self.run_of_digits();
            frac_digits = n;
            // The first nine digits' value (the rest is cut, as `plain_time` does).
            f9 = if n <= 9 { v } else { leading9(&self.b[s..s + 9]) };
        }
        if int_digits + frac_digits == 0 || !ends_field(self.b.get(self.i)) {
            return None;
        }
        Some(super::helpers::billionths(whole, int_digits, f9, frac_digits))
    }
}

/// 10^n for the digits counted in one word (0 to 8).
const POW10: [u64; 9] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/// The value of nine digits (a fraction's first nine; rare).
#[cold]
fn leading9(d: &[u8]) -> u64 {
    d.iter().fold(0, |v, &c| v * 10 + (c - b'0') as u64)
}

#[cfg(test)]
mod tests {
    use super::super::options::TraceOptions;
    use super::super::raw::RawTrace;
    use super::super::{Cx, LineReader};
    use super::{fast_line, Disksim};
    use crate::trace::rng::SplitMix64;

    /// The window reader reads the usual lines itself, short texts (padded) and long ones
    /// (a window), and refuses 8-digit fields: a reader that refused every line would leave
    /// them to the slower paths with the same records, which the other tests do not see.
    #[test]
    fn the_window_reader_reads_the_usual_lines() {
        let lines: [(&str, i128, &str, u64, u64, bool); 3] = [
            ("0.000 0 356880 8 0\n", 0, "0", 356_880, 8, true),
            ("1141868.000 12 7 64 1\r\n", 1_141_868_000_000_000, "12", 7, 64, false),
            (
                "9999999.9999999 1234567 9999999 9999999 1\n",
                9_999_999_999_999_900,
                "1234567",
                9_999_999,
                9_999_999,
                false,
            ),
        ];
        for (line, time, dev, lba, size, write) in lines {
            for text in [line.to_string(), format!("{line}{}", "0 0 0 8 0\n".repeat(8))] {
                let (u, end) = super::usual(text.as_bytes(), 512).unwrap_or_else(|| panic!("{text:?}"));
                let got = (u.time(), &text[u.dev_at..u.dev_at + u.dev_len], u.offset, u.bytes, u.write, end);
                assert_eq!(got, (time, dev, lba * 512, size * 512, write, line.len() - 1), "{text:?}");
            }
        }
        for line in [
            "12345678 0 0 8 0\n",
            "1.12345678 0 0 8 0\n",
            "0 12345678 0 8 0\n",
            "0 0 12345678 8 0\n",
            "0 0 0 12345678 0\n",
        ] {
            assert!(super::usual(line.as_bytes(), 512).is_none(), "{line:?}");
        }
    }

    /// Wherever the fast path reads a line, the general reader reads the same record from
    /// it; and it does read the usual lines (random lines from pieces that are valid,
    /// odd or wrong: blanks, CRs, signs, exponents, long numbers, extra fields).
    #[test]
    fn the_fast_path_reads_what_the_general_reader_reads() {
        let times = [
            "0.000",
            "1141868.000",
            "12",
            ".5",
            "7.",
            "123456789012345678.1",
            "1234567890123456789.5",
            "12345678.123456789",
            "0.12345678912345678",
            "99999999.999999999999999999999",
            "+1.5",
            "-2",
            "1e3",
            "1.2.3",
            ".",
            "",
            "x",
        ];
        let nums = [
            "0",
            "8",
            "356880",
            "007",
            "1234567890123456789",
            "12345678901234567890",
            "99999999999999999999",
            "-1",
            "+3",
            "1.5",
            "a",
            "",
        ];
        let types = ["0", "1", "2", "01", "", "r"];
        let seps = [" ", "  ", "\t", " \t ", "", "\r", ","];
        let ends = ["", "\r", " ", " \r", "\t\r\r", " 7", "\r7", "x"];
        let mut rng = SplitMix64::new(37);
        let mut pick = |xs: &[&'static str]| xs[rng.below(xs.len() as u64) as usize];
        let opts = TraceOptions::default();
        let (mut fast, mut usual) = (0, 0);
        for i in 0..40_000 {
            let line = if i % 4 == 0 {
                // The usual form.
                format!(
                    "{} {} {} {} {}",
                    pick(&times[..6]),
                    pick(&nums[..5]),
                    pick(&nums[..5]),
                    pick(&nums[..5]),
                    pick(&types[..2])
                )
            } else {
                let lead = if i % 3 == 0 { pick(&seps) } else { "" };
                format!(
                    "{lead}{}{}{}{}{}{}{}{}{}{}",
                    pick(&times),
                    pick(&seps),
                    pick(&nums),
                    pick(&seps),
                    pick(&nums),
                    pick(&seps),
                    pick(&nums),
                    pick(&seps),
                    pick(&types),
                    pick(&ends)
                )
            };
            // As the parser hands a line to the reader: one CR cut.
            let text = line.strip_suffix('\r').unwrap_or(&line);
            let (mut out, mut fatal) = (RawTrace::default(), None);
            let mut cx = Cx { opts: &opts, out: &mut out, fatal: &mut fatal };
            let general = Disksim.read(text, &mut cx);
            let quick = fast_line(line.as_bytes(), opts.sector_bytes as u64).map(|(q, end)| {
                assert_eq!(end, line.len(), "{line:?}: a line without a newline ends at its end");
                q
            });
            // The same line inside a text (words of 8 bytes read past its digits): the same
            // answer, ending at its newline.
            let inside = format!("{line}\n{} 0 1 8 0\n", pick(&times));
            let within = fast_line(inside.as_bytes(), opts.sector_bytes as u64);
            assert_eq!(within.as_ref().map(|w| w.1), quick.as_ref().map(|_| line.len()), "{line:?} in a text");
            if let (Some((w, _)), Some(q)) = (&within, &quick) {
                assert_eq!(
                    (w.write, w.offset, w.bytes, w.device, w.time),
                    (q.write, q.offset, q.bytes, q.device, q.time)
                );
            }
            if i % 4 == 0 && general.as_ref().is_ok_and(|r| r.is_some()) {
                usual += 1;
                assert!(quick.is_some(), "the fast path reads the usual line {line:?}");
            }
            let Some(q) = quick else { continue };
            fast += 1;
            let g =
                general.unwrap_or_else(|e| panic!("{line:?}: the fast path read it, the general one failed: {e:?}"));
            let g = g.expect("a DiskSim line is a record");
            assert_eq!(
                (g.write, g.offset, g.bytes, g.device, g.time),
                (q.write, q.offset, q.bytes, Some(std::str::from_utf8(q.device).unwrap()), Some(q.time)),
                "{line:?}"
            );
        }
        assert!(usual > 5_000 && fast > usual, "{usual} usual lines, {fast} read by the fast path");
    }
}
