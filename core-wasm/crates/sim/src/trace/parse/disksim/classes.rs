//! DiskSim's usual line read from its bytes' classes (issue 37, session 28): the first 32
//! bytes sorted at once into digits, blanks, dots and newlines (a bit a byte, SSE2: the
//! x86-64 baseline, no build flag), the field layout checked from those masks and the
//! fields' positions taken from the blanks' bits, instead of a digit test and a separator
//! test per field, each on the word the one before found. `super::usual_words` answers
//! for a line the 32 bytes do not hold (and on targets without the masks). Where this
//! answers, it answers what `usual_words` does: the same form (no leading blank; a
//! timestamp of up to 7 digits before and 7 after an optional dot, one digit at least;
//! device, LBA and size of 1 to 7 digits; single spaces; the type 0 or 1; LF or CR LF).

use super::{value_of, word_at, Usual, ONES, WINDOW};

/// Bits of the first 32 bytes of `w`: (newlines, spaces, dots, any of digit / space /
/// dot).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classes(w: &[u8; WINDOW]) -> (u32, u32, u32, u32) {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86-64 itself (every x86-64 CPU has it: no feature check),
    // and both loads read 16 bytes inside `w` (72 bytes), unaligned.
    unsafe {
        let half = |x: __m128i| {
            // A byte minus '0' plus 0x80 is below -118 (signed) exactly for a digit.
            let digit = _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8(0x50)), _mm_set1_epi8(-118));
            let space = _mm_cmpeq_epi8(x, _mm_set1_epi8(b' ' as i8));
            let dot = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'.' as i8));
            let nl = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\n' as i8));
            let any = _mm_or_si128(_mm_or_si128(digit, space), dot);
            let bits = |m: __m128i| _mm_movemask_epi8(m) as u32;
            (bits(nl), bits(space), bits(dot), bits(any))
        };
        let p = w.as_ptr() as *const __m128i;
        let (l, h) = (half(_mm_loadu_si128(p)), half(_mm_loadu_si128(p.add(1))));
        (l.0 | h.0 << 16, l.1 | h.1 << 16, l.2 | h.2 << 16, l.3 | h.3 << 16)
    }
}

/// The line at the start of `w`, read from its bytes' classes: `Some(answer)` where the
/// line (its newline) lies in the first 32 bytes (the answer `usual_words` gives), None
/// where it does not (`usual_words` reads it then).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn usual_classes(w: &[u8; WINDOW], sector: u64) -> Option<Option<(Usual, usize)>> {
    let (nl, space, dot, any) = classes(w);
    if nl == 0 {
        return None;
    }
    Some(layout(w, sector, nl.trailing_zeros(), space, dot, any))
}

/// No masks on other targets (wasm without simd128): `usual_words` reads every line.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn usual_classes(_: &[u8; WINDOW], _: u64) -> Option<Option<(Usual, usize)>> {
    None
}

/// The usual line ending with the newline at `nl` (< 32), from the class bits. Unused
/// where no masks are made (wasm, until its build has simd128).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn layout(w: &[u8; WINDOW], sector: u64, nl: u32, space: u32, dot: u32, any: u32) -> Option<(Usual, usize)> {
    // The shortest usual line, `0 0 0 0 0`, has 9 bytes before its newline.
    if nl < 9 {
        return None;
    }
    // The type's byte: before the newline, or before its CR.
    let cr = (w[(nl - 1) as usize & 31] == b'\r') as u32;
    let ty = nl.wrapping_sub(cr + 1);
    let write = match w[ty as usize & 31] {
        b'0' => true,
        b'1' => false,
        _ => return None,
    };
    // The bytes before the type: time, space, device, space, LBA, space, size, space.
    let body = (1u32 << ty) - 1;
    let s = space & body;
    let s1 = s.trailing_zeros();
    let r = s & s.wrapping_sub(1);
    let s2 = r.trailing_zeros();
    let r = r & r.wrapping_sub(1);
    let s3 = r.trailing_zeros();
    let r = r & r.wrapping_sub(1);
    let s4 = r.trailing_zeros();
    // Four spaces, the last just before the type (fewer: s4 is 32), and nothing but
    // digits, spaces and dots before it.
    if s4 != ty.wrapping_sub(1) || r & r.wrapping_sub(1) != 0 || any & body != body {
        return None;
    }
    // At most one dot, in the timestamp.
    let d = dot & body;
    if d & d.wrapping_sub(1) != 0 || d >> s1 != 0 {
        return None;
    }
    let int_digits = if d == 0 { s1 } else { d.trailing_zeros() };
    let frac_digits = s1 - int_digits - (d != 0) as u32;
    let (dev_len, lba_len, size_len) = (s2 - s1 - 1, s3 - s2 - 1, s4 - s3 - 1);
    // 1 to 7 digits each (a length of 0 wraps past 7), the time's parts 0 to 7 and one
    // digit at least.
    let short = |n: u32| n.wrapping_sub(1) < 7;
    if !(short(dev_len) && short(lba_len) && short(size_len) && int_digits <= 7 && frac_digits <= 7)
        || int_digits + frac_digits == 0
    {
        return None;
    }
    let digits = |at: u32| word_at(w, at as usize).wrapping_sub(0x30 * ONES);
    let offset = value_of(digits(s2 + 1), lba_len as usize) * sector;
    let bytes = value_of(digits(s3 + 1), size_len as usize) * sector;
    let (dev_at, dev_len) = ((s1 + 1) as usize, dev_len as usize);
    let dev = word_at(w, dev_at) << (64 - 8 * dev_len);
    let whole = (word_at(w, 0), int_digits as usize);
    let frac = if d == 0 { (0, 0) } else { (word_at(w, int_digits as usize + 1), frac_digits as usize) };
    Some((Usual { whole, frac, dev, dev_at, dev_len, offset, bytes, write }, nl as usize))
}

#[cfg(test)]
mod tests {
    use super::super::{usual_words, WINDOW};
    use super::usual_classes;
    use crate::trace::rng::SplitMix64;

    /// Wherever the classes answer, they answer what the field-at-a-time reader does, on
    /// random lines built from usual and adversarial pieces (fields of 0 to 9 digits, two
    /// dots, blanks doubled or leading, tabs, CRs inside or before the newline, other
    /// bytes, 5 or 6 fields, the newline near the 32nd byte), each followed by more text
    /// or by the zeros of a padded window; and they answer for every usual line whose
    /// newline lies in the first 32 bytes.
    #[test]
    fn the_classes_read_what_the_words_read() {
        let mut rng = SplitMix64::new(2028);
        let pieces = [" ", " ", " ", "  ", "\t", ".", "..", "\r", "\n", "x", "-", "+", "e", "\0"];
        let (mut answered, mut usual) = (0, 0);
        for case in 0..200_000 {
            let mut line = String::new();
            let digits = |rng: &mut SplitMix64, n: u64| -> String {
                (0..n).map(|_| char::from(b'0' + rng.below(10) as u8)).collect()
            };
            // 1 to 7 digits mostly, sometimes none, 8 or 9.
            let width = |rng: &mut SplitMix64| match rng.below(10) {
                0 => [0, 8, 9][rng.below(3) as usize],
                _ => 1 + rng.below(7),
            };
            if case % 2 == 0 {
                // The usual form, at every width (none, 8 and 9 digits refused), LF or CR LF.
                let w = width(&mut rng);
                let whole = digits(&mut rng, w);
                let time = match rng.below(3) {
                    0 => whole,
                    _ => {
                        let w = width(&mut rng);
                        format!("{whole}.{}", digits(&mut rng, w))
                    }
                };
                let f: Vec<String> = (0..3)
                    .map(|_| {
                        let w = width(&mut rng);
                        digits(&mut rng, w)
                    })
                    .collect();
                let ty = ["0", "1", "0", "1", "2", "01"][rng.below(6) as usize];
                let nl = ["\n", "\r\n", "\n", "\r\n", "\r\r\n", " \n", ""][rng.below(7) as usize];
                line = format!("{time} {} {} {} {ty}{nl}", f[0], f[1], f[2]);
            } else {
                for _ in 0..rng.below(14) {
                    if rng.below(2) == 0 {
                        let w = rng.below(10);
                        line.push_str(&digits(&mut rng, w));
                    } else {
                        line.push_str(pieces[rng.below(pieces.len() as u64) as usize]);
                    }
                }
                line.push('\n');
            }
            if case % 5 == 0 && !line.is_empty() {
                // One byte changed anywhere.
                let mut b = line.clone().into_bytes();
                let at = rng.below(b.len() as u64) as usize;
                b[at] = [b' ', b'.', b'\n', b'\r', b'5', b'/', b':'][rng.below(7) as usize];
                line = String::from_utf8(b).expect("ASCII");
            }
            let mut w = [0u8; WINDOW];
            let n = line.len().min(WINDOW);
            w[..n].copy_from_slice(&line.as_bytes()[..n]);
            if case % 3 != 0 {
                // More text after the line (a padded window has zeros there).
                for (i, x) in w.iter_mut().enumerate().skip(n) {
                    *x = b"7 0 12 8 1\n"[i % 11];
                }
            }
            let words = usual_words(&w, 512);
            match usual_classes(&w, 512) {
                Some(classes) => {
                    answered += 1;
                    assert_eq!(classes, words, "{line:?}");
                }
                None => assert!(!w[..32].contains(&b'\n'), "{line:?}: a newline in the first 32 bytes"),
            }
            if words.as_ref().is_some_and(|(_, end)| *end < 32) {
                usual += 1;
            }
        }
        assert!(usual > 15_000 && answered > 100_000, "{usual} usual lines, {answered} answered");
    }
}
