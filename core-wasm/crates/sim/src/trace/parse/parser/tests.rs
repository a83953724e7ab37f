//! The fast line readers against the general path (issue 37): a test module of its own
//! file so parser.rs stays under the structure check's 800 lines.

use super::*;

/// The files every format's parser is tried on: the repo's sample traces (every
/// format, gzip, zstd, binary), the crash-chain pattern of docs/traces, and the shared
/// MQSim trace when it is there.
fn test_traces() -> Vec<(String, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let mut files = Vec::new();
    for dir in [root.join("traces"), root.join("docs/traces"), root.join("../shared/traces")] {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "md") {
                continue;
            }
            files.push((p.display().to_string(), std::fs::read(&p).unwrap()));
        }
    }
    files.sort();
    files
}

fn parse_with(bytes: &[u8], opts: TraceOptions, fast: bool, chunk: usize) -> String {
    let mut p = TraceParser::new(opts);
    p.fast_paths = fast;
    for c in bytes.chunks(chunk.max(1)) {
        p.feed(c);
    }
    format!("{:?}", p.finish())
}

/// Every test trace gives the same requests, counts and errors (with their line numbers)
/// through the fast paths as through the general one, whole or in odd chunks, at page
/// sizes that are powers of two and one that is not (the shift and the division).
#[test]
fn fast_paths_parse_every_test_trace_as_the_general_path() {
    let files = test_traces();
    assert!(files.len() >= 14, "the sample traces are found: {}", files.len());
    for (name, bytes) in &files {
        for page_bytes in [512, 4096, 3000] {
            let opts = TraceOptions { page_bytes, ..TraceOptions::default() };
            let general = parse_with(bytes, opts.clone(), false, bytes.len());
            assert!(general.starts_with("Ok("), "{name}: {}", &general[..general.len().min(300)]);
            for chunk in [bytes.len(), 4093, 65_537] {
                let fast = parse_with(bytes, opts.clone(), true, chunk);
                assert!(fast == general, "{name} at {page_bytes}-byte pages, chunks of {chunk}");
            }
        }
    }
}

/// A DiskSim trace with bad lines here and there (in the first chunk and in later ones):
/// the same errors at the same line numbers, skipped or not.
#[test]
fn bad_lines_name_their_lines_on_the_fast_path() {
    let mut text = String::new();
    let mut bad = Vec::new();
    for i in 0..20_000u64 {
        let line = i as usize + 1;
        match i % 3_331 {
            17 => {
                text.push_str(&format!("{i}.5 0 {} 8 7\n", i * 8));
                bad.push(line);
            }
            900 => {
                text.push_str(&format!("{i}.5 0 x{} 8 0\n", i * 8));
                bad.push(line);
            }
            _ => text.push_str(&format!("{i}.5 0 {} 8 {}\n", i * 8, i % 2)),
        }
    }
    for skip in [false, true] {
        let opts = TraceOptions { skip_bad_lines: skip, max_errors: 100, ..TraceOptions::default() };
        let general = parse_with(text.as_bytes(), opts.clone(), false, usize::MAX);
        for chunk in [text.len(), 10_007] {
            assert_eq!(parse_with(text.as_bytes(), opts.clone(), true, chunk), general, "skip {skip}, chunk {chunk}");
        }
        let mut p = TraceParser::new(opts);
        p.feed(text.as_bytes());
        let errors = match p.finish() {
            Ok(r) => r.errors,
            Err(e) => e.errors,
        };
        assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), bad, "skip {skip}");
    }
}

/// A random DiskSim text: mostly usual lines (the bulk reader's), among them the lines that
/// must end a bulk run or leave the fast paths (another device, size 0, leading blanks,
/// tabs, CR LF, long and huge numbers, signs, missing and extra fields, bad types, comments,
/// blank lines), with or without a newline after the last line.
fn random_disksim(rng: &mut crate::trace::rng::SplitMix64, lines: usize) -> String {
    let odd = [
        "  {t} 0 {a} 8 1",
        "\t{t}\t0\t{a}\t8\t0",
        "{t} 0 {a} 8 1\r",
        "{t}  0 {a} 8 0",
        "{t} 0 {a} 8 0 ",
        "{t} 1 {a} 8 0",
        "{t} 12 {a} 8 1",
        "{t} 0 {a} 0 1",
        "{t} 0 {a} 16 0",
        "{t} 0 {a} 123456789 1",
        "{t} 0 99999999999999999 8 0",
        "{t} 0 18014398509481983 8 0",
        "{t} 0 36028797018963967 9 1",
        "{t} 0 999999999999999999999 8 0",
        "{t} 0 -{a} 8 0",
        "{t} 0 +{a} 8 0",
        "-{t} 0 {a} 8 1",
        "{t}.5 0 {a} 8 1",
        "12345678.5 0 {a} 8 1",
        "1.123456789012 0 {a} 8 1",
        "{t} 0 {a} 8",
        "{t} 0 {a}",
        "{t} 0 {a} 8 2",
        "{t} 0 {a} 8 1 9",
        "{t} 0 {a} 8 x",
        "# a comment",
        "",
        "   ",
        "{t} 0 1{a}0 8 0",
    ];
    let mut text = String::new();
    let mut t = 0u64;
    // Half the addresses continue the last usual line's (its pages extend a run when the
    // type is the same).
    let mut next = 0u64;
    for _ in 0..lines {
        t += rng.below(2000);
        let time = format!("{}.{:03}", t / 1000, t % 1000);
        let a = if rng.below(2) == 0 { next } else { rng.below(1 << 20) * 8 };
        let line = if rng.below(10) < 8 {
            let size = [8, 8, 8, 1, 16, 64][rng.below(6) as usize];
            next = a + size;
            format!("{time} 0 {a} {size} {}", rng.below(2))
        } else {
            let a = a.to_string();
            odd[rng.below(odd.len() as u64) as usize].replace("{t}", &time).replace("{a}", &a)
        };
        text.push_str(&line);
        text.push('\n');
    }
    if rng.below(2) == 0 {
        text.pop();
    }
    text
}

/// DiskSim's bulk reader (`usual_run`) against the general path on random texts with the
/// lines that must end a run among the usual ones: the same trace (requests, host-request
/// starts, times, counters, devices, errors and their line numbers), whatever the options
/// (the request limit reached inside a run, a device filter, times kept or dropped, bad
/// lines skipped or not, pages that are or are not a power of two) and wherever the chunks
/// are cut, a small text at every offset.
#[test]
fn the_bulk_reader_reads_random_disksim_texts_as_the_general_path() {
    let mut rng = crate::trace::rng::SplitMix64::new(377);
    for case in 0..120u64 {
        let lines = 1 + rng.below(3_000) as usize;
        let text = random_disksim(&mut rng, lines);
        let opts = TraceOptions {
            page_bytes: [4096, 512, 3000][(case % 3) as usize],
            skip_bad_lines: case % 4 != 0,
            max_errors: [1, 5, 100][(case % 5 % 3) as usize],
            limit: if case % 7 == 0 { 1 + rng.below(4_000) } else { TraceOptions::default().limit },
            device: (case % 11 == 0).then(|| ["0", " 1 "][(case % 2) as usize].to_string()),
            drop_times: case % 2 == 1,
            ..TraceOptions::default()
        };
        for chunk in [text.len(), 1 + rng.below(300) as usize, 4093] {
            // The same chunks (the bytes read before a stop depend on them).
            let general = parse_with(text.as_bytes(), opts.clone(), false, chunk);
            let fast = parse_with(text.as_bytes(), opts.clone(), true, chunk);
            assert!(fast == general, "case {case}, chunks of {chunk}:\n{fast}\n{general}");
        }
    }
    for case in 0..40 {
        let text = random_disksim(&mut rng, 12);
        let opts = TraceOptions { skip_bad_lines: true, drop_times: case % 2 == 0, ..TraceOptions::default() };
        let general = parse_with(text.as_bytes(), opts.clone(), false, text.len());
        for cut in 0..=text.len() {
            let mut p = TraceParser::new(opts.clone());
            p.feed(&text.as_bytes()[..cut]);
            p.feed(&text.as_bytes()[cut..]);
            assert_eq!(format!("{:?}", p.finish()), general, "case {case}, cut at {cut}: {text:?}");
        }
    }
}

/// A number of exactly `digits` digits (1 to 7), its first one not 0 unless it is alone.
fn number(rng: &mut crate::trace::rng::SplitMix64, digits: u32) -> u64 {
    let low = if digits == 1 { 0 } else { 10u64.pow(digits - 1) };
    low + rng.below(10u64.pow(digits) - low)
}

/// The bulk reader (`usual_run`) takes every usual line it is given, the last ones of the
/// buffer too (fewer than a window's bytes left: read from a padded copy), whatever
/// follows the lines' end in the buffer (a partial line or nothing), at every field width
/// up to 7 digits, LF or CR LF; and it reads them as the general path does. A bulk reader
/// that stopped early (a window bound off by one) leaves the lines to `fast_line`, which
/// reads the same records: the comparisons above cannot see it.
#[test]
fn the_bulk_reader_takes_every_usual_line_to_the_end() {
    let mut rng = crate::trace::rng::SplitMix64::new(12);
    // Read line at a time first (the device and the first time), then in bulk.
    let head: String = (0..1_000).map(|i| format!("{i}.5 0 {} 8 0\n", i * 8)).collect();
    assert!(head.len() >= SNIFF);
    for case in 0..300 {
        let mut tail = String::new();
        for _ in 0..1 + rng.below(8) {
            let mut num = |most: u64| {
                let digits = 1 + rng.below(most) as u32;
                number(&mut rng, digits)
            };
            let whole = num(7);
            let time = match num(8) {
                // No fraction, or one of 1 to 7 digits (leading zeros kept).
                f if f < 10 => whole.to_string(),
                f => format!("{whole}.{}", &f.to_string()[1..]),
            };
            let (lba, size) = (num(7), 1 + num(4));
            let (write, nl) = (rng.below(2), if rng.below(3) == 0 { "\r\n" } else { "\n" });
            tail.push_str(&format!("{time} 0 {lba} {size} {write}{nl}"));
        }
        let end = tail.len();
        let buf = format!("{tail}{}", ["", "7", "12.5 0 8", "1234567.1234567 0 1234567 12"][case % 4]);
        let mut p = TraceParser::new(TraceOptions::default());
        p.feed(head.as_bytes());
        assert_eq!(p.out.lines, 1_000, "the head is read whole");
        assert_eq!(p.usual_run(buf.as_bytes(), 0, end, 512), end, "case {case}: {tail:?}");
        // The tail was read, not fed: `bytes` counts the text fed.
        p.out.bytes += end as u64;
        let general = parse_with(format!("{head}{tail}").as_bytes(), TraceOptions::default(), false, usize::MAX);
        assert!(format!("{:?}", p.finish()) == general, "case {case}: {tail:?}");
    }
}

/// A page or sector size of 0 is refused before any line is read, with the option's name
/// (from JSON too, as the app's TraceParser takes its options), whole or in small chunks;
/// every other sector size reads the same through the fast paths as through the general
/// one, the overflow edges too (a size of 32 bits times an LBA of up to 21 digits).
#[test]
fn a_size_of_0_is_refused_and_every_sector_size_reads_alike() {
    let text = "0.000 0 356880 8 0\n1.000 0 356888 8 1\n";
    for (json, name) in [(r#"{"sector_bytes": 0}"#, "sector_bytes 0"), (r#"{"page_bytes": 0}"#, "page_bytes 0")] {
        let opts: TraceOptions = serde_json::from_str(json).unwrap();
        for chunk in [text.len(), 7] {
            let e = parse_with(text.as_bytes(), opts.clone(), true, chunk);
            assert!(e.starts_with("Err(") && e.contains(name), "{json}, chunks of {chunk}: {e}");
            let other = if name.starts_with("page") { "sector_bytes" } else { "page_bytes" };
            assert!(!e.contains(other), "{e}");
        }
    }
    let mut rng = crate::trace::rng::SplitMix64::new(21);
    for sector_bytes in [1, 3, 512, 4096, u32::MAX] {
        for case in 0..12 {
            let lines = 1 + rng.below(2_000) as usize;
            let text = random_disksim(&mut rng, lines);
            let opts = TraceOptions { sector_bytes, page_bytes: 4096, skip_bad_lines: true, ..TraceOptions::default() };
            for chunk in [text.len(), 4093] {
                // The same chunks (the bytes read before a stop depend on them).
                let general = parse_with(text.as_bytes(), opts.clone(), false, chunk);
                let fast = parse_with(text.as_bytes(), opts.clone(), true, chunk);
                assert!(fast == general, "sector {sector_bytes}, case {case}, chunks of {chunk}:\n{fast}\n{general}");
            }
        }
    }
}

/// A chunk's whole lines are read where the chunk lies and only its last partial line is
/// carried (issue 37): wherever the chunks end (inside a line, right after a newline,
/// between CR and LF, inside a multi-byte character, in a chunk without a newline, in a
/// line too long to be a trace's), every format reads as it does whole, with the same
/// errors at the same lines.
#[test]
fn a_text_read_in_any_chunks_reads_as_whole() {
    // Usual DiskSim lines of varied lengths (no bad ones: those come below).
    let usual: String = (0..3_000u64)
        .map(|i| format!("{}.{:03} 0 {} {} {}\n", i, i * 37 % 1000, i * 7_919 % 1_000_003, 8 << (i % 4), i % 2))
        .collect();
    let mut texts: Vec<(&str, Vec<u8>)> = vec![
        ("disksim", usual.clone().into_bytes()),
        ("crlf", usual.replace('\n', "\r\n").into_bytes()),
        ("no final newline", usual.trim_end().as_bytes().to_vec()),
        ("comments", usual.replace("\n1", "\n# a comment é\n\n1").into_bytes()),
        (
            "bom csv",
            [&b"\xef\xbb\xbfop,offset (bytes),size (bytes)\n"[..], &b"W,4096,8192\nR,0,4096\n".repeat(400)].concat(),
        ),
        ("umass", "0,76040,4096,w,0.000\n0,45752,8192,r,0.001\n".repeat(700).into_bytes()),
        (
            "late pattern",
            format!("{}w0 w32 r64 w96\nw0 r32\n", "# padding before the pattern\n".repeat(400)).into_bytes(),
        ),
    ];
    // A bad byte and a bad line deep in the text.
    let mut bad = usual.clone().into_bytes();
    let at = bad.len() * 2 / 3;
    bad[at] = 0xff;
    bad.extend_from_slice(b"1.0 0 12x 8 0\n0.5 0 8 8 0\n");
    texts.push(("bad byte and line", bad));
    // A line of twice the 1 MB limit after usual ones.
    let mut long = usual.clone().into_bytes();
    long.extend_from_slice(b"0.1 0 ");
    long.extend(std::iter::repeat_n(b'9', 2 * MAX_LINE));
    long.extend_from_slice(b" 8 0\n");
    texts.push(("long line", long));
    for (name, text) in &texts {
        for skip_bad_lines in [false, true] {
            let opts = TraceOptions { skip_bad_lines, ..TraceOptions::default() };
            // Whole, the long line is a whole line (a bad one); in chunks it is refused for its
            // length once its carried part passes the limit, at any chunk size.
            let long = *name == "long line";
            let whole = parse_with(text, opts.clone(), true, if long { 65_537 } else { text.len() });
            assert!(
                whole.starts_with(if long || (name.contains("bad") && !skip_bad_lines) { "Err(" } else { "Ok(" }),
                "{name}: {whole:.300}"
            );
            let small: &[usize] = if long { &[] } else { &[1, 2, 3, 61] };
            for &chunk in small.iter().chain(&[4093, SNIFF + 1, 65_537, 300_000]) {
                let chunked = parse_with(text, opts.clone(), true, chunk);
                assert!(
                    chunked == whole,
                    "{name}, skip {skip_bad_lines}, chunks of {chunk}:\n{chunked:.600}\n{whole:.600}"
                );
            }
        }
    }
}
