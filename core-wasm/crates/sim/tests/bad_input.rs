//! Hostile and malformed input (issue 29): every reader and the pattern parser answer
//! with an error or a bounded result, never a panic, a stack overflow or an allocation
//! the size of the expanded input. Peak memory itself is measured by
//! scripts/hostile-input-rss.sh (not a timed test); here the tests check what bounds it:
//! how much text a parser decodes before it stops.

use ftl_sim::trace::parse::{parse_bytes, Format, Mapping, TraceOptions, TraceParser};
use ftl_sim::trace::pattern::{self, MAX_DEPTH};
use ftl_sim::trace::Request;
use proptest::prelude::*;

fn opts() -> TraceOptions {
    TraceOptions { page_bytes: 4096, ..TraceOptions::default() }
}

fn err_of(bytes: &[u8], o: TraceOptions) -> String {
    match parse_bytes(bytes, o) {
        Ok(r) => panic!("expected an error, parsed {} requests", r.len()),
        Err(e) => e.to_string(),
    }
}

/// A zstd frame of `blocks` RLE blocks of 128 KB of `byte` each (4 bytes per block: the
/// 33 KB file of issue 29 that expands to 1 GiB), with a 128 KB window.
fn zstd_rle(byte: u8, blocks: usize) -> Vec<u8> {
    let mut z = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
    for i in 0..blocks {
        let last = (i + 1 == blocks) as u32;
        let h = last | 1 << 1 | (128 << 10) << 3;
        z.extend_from_slice(&h.to_le_bytes()[..3]);
        z.push(byte);
    }
    z
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Feeds `bytes` in 4 MB chunks as the app does; returns the text bytes decoded when
/// the parser stopped, and the outcome.
fn feed_all(bytes: &[u8], o: TraceOptions) -> (u64, Result<u64, String>) {
    let mut p = TraceParser::new(o);
    let mut decoded = 0;
    for c in bytes.chunks(4 << 20) {
        let pr = p.feed(c);
        decoded = pr.bytes;
        if pr.failed || pr.done {
            break;
        }
    }
    (decoded, p.finish().map(|r| r.len() as u64).map_err(|e| e.message))
}

#[test]
fn zstd_of_a_gibibyte_of_zeros_is_refused_after_its_first_block() {
    let z = zstd_rle(0, 8192);
    assert!(z.len() < 40_000);
    let (decoded, r) = feed_all(&z, opts());
    let e = r.unwrap_err();
    assert!(e.contains("zero bytes"), "{e}");
    assert!(decoded <= 256 << 10, "decoded {decoded} bytes before refusing");
    // Forced as a binary record format too (issue 29: "after 0 whole 24-byte records").
    let (decoded, r) = feed_all(&z, TraceOptions { format: Some(Format::OracleGeneral), ..opts() });
    assert!(r.unwrap_err().contains("zero bytes"));
    assert!(decoded <= 256 << 10);
}

#[test]
fn zstd_text_beyond_the_request_limit_stops_reading() {
    // 1 GiB of "w" would be refused as not a trace; a valid UMass line repeated in
    // raw blocks expands as far as the frame says, and reading stops at the limit.
    let line = b"0,303567,4096,w,0.000000\n";
    let block: Vec<u8> = line.iter().copied().cycle().take(line.len() * 5000).collect();
    let mut z = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
    for i in 0..400 {
        let h = (i == 399) as u32 | (block.len() as u32) << 3; // raw block
        z.extend_from_slice(&h.to_le_bytes()[..3]);
        z.extend_from_slice(&block);
    }
    let (decoded, r) = feed_all(&z, TraceOptions { limit: 10_000, ..opts() });
    assert_eq!(r, Ok(10_000));
    assert!(decoded < 4 * block.len() as u64, "decoded {decoded} bytes for 10,000 requests");
}

#[test]
fn zstd_with_a_window_too_large_is_refused_before_allocating_it() {
    // Single segment, 8-byte content size of 6 GiB: the window is the content size.
    let mut z = vec![0x28, 0xb5, 0x2f, 0xfd, 0xe0];
    z.extend_from_slice(&(6u64 << 30).to_le_bytes());
    z.extend_from_slice(&[0x03, 0x00, 0x10, 0x30]); // one RLE block of '0'
    let e = err_of(&z, opts());
    assert!(e.contains("6144 MB window") && e.contains("at most 32 MB"), "{e}");
}

#[test]
fn gzip_of_zeros_is_refused_after_its_first_pieces() {
    let gz = gzip(&vec![0u8; 64 << 20]);
    let (decoded, r) = feed_all(&gz, opts());
    assert!(r.unwrap_err().contains("zero bytes"));
    assert!(decoded <= 1 << 20, "decoded {decoded} bytes before refusing");
}

#[test]
fn gzip_text_beyond_the_request_limit_stops_reading() {
    let text = b"0,303567,4096,w,0.000000\n".repeat(2_000_000); // 50 MB
    let gz = gzip(&text);
    let (decoded, r) = feed_all(&gz, TraceOptions { limit: 1000, ..opts() });
    assert_eq!(r, Ok(1000));
    assert!(decoded <= 1 << 20, "decoded {decoded} bytes for 1000 requests");
}

#[test]
fn one_record_larger_than_the_limit_says_so() {
    // Issue 29: a UMass record of more than 20 M pages read "only blank or comment lines".
    let e = err_of(b"0,0,107374182400,w,0.0\n", opts());
    assert!(e.contains("spans 26214400 page requests, more than the limit of 20000000"), "{e}");
}

#[test]
fn text_encodings() {
    // A UTF-8 byte-order mark is not part of the first column's name.
    let r = parse_bytes(b"\xef\xbb\xbfop,offset,size\nW,0,4096\n", opts()).unwrap();
    assert_eq!((r.format, r.len()), (Some(Format::Csv), 1));
    // UTF-16, with or without its byte-order mark, is named as such (not "binary").
    let utf16: Vec<u8> = "op,offset,size\nW,0,4096\n".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    for bytes in [[&[0xff, 0xfe][..], &utf16].concat(), utf16.clone()] {
        let e = err_of(&bytes, opts());
        assert!(e.contains("UTF-16") && e.contains("UTF-8"), "{e}");
    }
}

#[test]
fn csv_mapping_messages_name_the_real_columns() {
    let mut m = Mapping::default();
    m.set_column("op=1").unwrap();
    m.set_column("address=999").unwrap();
    let e = err_of(b"W,0,4096,1\n", TraceOptions { mapping: m, ..opts() });
    assert!(e.contains("address column 999, but line 1 has 4 columns"), "{e}");
    // A role twice, and one op value both read and write.
    let mut m = Mapping::default();
    m.set_column("address=2").unwrap();
    let e = m.set_column("address=3").unwrap_err();
    assert!(e.contains("the address is already mapped to column '2'"), "{e}");
    let m = Mapping { read_ops: vec!["W".into()], write_ops: vec!["w".into()], ..Mapping::default() };
    let e = err_of(b"op,offset\nW,0\n", TraceOptions { mapping: m, ..opts() });
    assert!(e.contains("'W' is given as both read (--read-op) and write (--write-op)"), "{e}");
    // A row with more fields than the header.
    let e = err_of(b"op,offset,size\nW,0,4096\nW,0,4096,7\n", opts());
    assert!(e.contains("line 3, column 10: 4 fields, but the first line has 3"), "{e}");
}

#[test]
fn binary_record_counts_are_of_the_whole_file() {
    let mut rec = Vec::new();
    for i in 0..3u32 {
        rec.extend_from_slice(&i.to_le_bytes());
        rec.extend_from_slice(&(i as u64).to_le_bytes());
        rec.extend_from_slice(&4096u32.to_le_bytes());
        rec.extend_from_slice(&(-1i64).to_le_bytes());
    }
    rec.extend_from_slice(&[1, 2, 3]);
    let o = TraceOptions { format: Some(Format::OracleGeneral), ..opts() };
    let mut p = TraceParser::new(o);
    for c in rec.chunks(10) {
        p.feed(c);
    }
    let e = p.finish().unwrap_err().message;
    assert!(e.contains("3 bytes after 3 whole 24-byte records"), "{e}");
}

#[test]
fn deep_patterns_parse_without_recursion() {
    let d = 25_000;
    let text = format!("{}w0{}", "(".repeat(d), ")x1".repeat(d));
    let r = parse_bytes(text.as_bytes(), TraceOptions { format: Some(Format::Pattern), ..opts() }).unwrap();
    assert_eq!(r.len(), 1);
    let e = pattern::parse(&"(".repeat(MAX_DEPTH + 5)).unwrap_err();
    assert!(e.message.contains("nested more than"), "{}", e.message);
    // Nesting that would copy a large body at every level costs only its output.
    let text = format!("{}w0-999999{}", "(w1 ".repeat(2000), ")x1".repeat(2000));
    assert_eq!(pattern::parse(&text).unwrap().len(), 1_002_000);
}

#[test]
fn generator_and_fit_parameters_are_bounded_before_allocating() {
    use ftl_sim::trace::gen::Workload;
    let cam = Workload::Camera { n: 10, seed: 1, file_pages: 1_000_000_000, fat_fraction: 0.02, fat_writes: 2 };
    let e = cam.requests(1000).unwrap_err();
    assert!(e.contains("file_pages must be in 1..=20000000"), "{e}");
    // A photo larger than n: exactly n requests, no photo-sized allocation.
    let cam = Workload::Camera { n: 10, seed: 1, file_pages: 20_000_000, fat_fraction: 0.02, fat_writes: 2 };
    assert_eq!(cam.requests(1000).unwrap().len(), 10);
    // --fit scale with an address of 2^52 is refused before any chip is built.
    let text = "op,lpn\nw,0\nw,4503599627370496\n";
    let w = Workload::Trace {
        text: text.into(),
        format: None,
        fit: ftl_sim::trace::fit::Fit::Scale,
        device: None,
        skip_bad_lines: false,
        blkparse_action: None,
    };
    let sc = ftl_sim::scenario::Scenario {
        scheme: "page".into(),
        params: Default::default(),
        chip: ftl_sim::scenario::ChipSpec { preset: "classroom".into(), blocks: Some(16), pages_per_block: Some(4) },
        workload: w,
        run: Default::default(),
    };
    let e = ftl_sim::scenario::load::build_trace(&sc).err().expect("refused");
    assert!(e.contains("needs 4503599627370497 logical pages, more than the largest chip has"), "{e}");
}

/// The pattern language by recursion (fine for the small inputs proptest makes): the
/// reference the iterative parser is checked against.
fn reference(items: &[Item]) -> Vec<Request> {
    let mut out = Vec::new();
    for it in items {
        match it {
            Item::W(l) => out.push(Request::Write { lpn: *l }),
            Item::R(a, b) => out.extend((*a..=*b).map(|lpn| Request::Read { lpn })),
            Item::Group(body, n) => {
                let b = reference(body);
                for _ in 0..*n {
                    out.extend_from_slice(&b);
                }
            }
        }
    }
    out
}

#[derive(Clone, Debug)]
enum Item {
    W(u32),
    R(u32, u32),
    Group(Vec<Item>, u32),
}

fn text_of(items: &[Item]) -> String {
    items
        .iter()
        .map(|it| match it {
            Item::W(l) => format!("w{l}"),
            Item::R(a, b) => format!("r{a}-{b}"),
            Item::Group(body, n) => format!("({})x{n}", text_of(body)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn arb_items() -> impl Strategy<Value = Vec<Item>> {
    let leaf = prop_oneof![(0u32..50).prop_map(Item::W), (0u32..50, 0u32..4).prop_map(|(a, d)| Item::R(a, a + d))];
    let item = leaf.prop_recursive(6, 40, 4, |inner| {
        (proptest::collection::vec(inner, 0..4), 0u32..4).prop_map(|(b, n)| Item::Group(b, n))
    });
    proptest::collection::vec(item, 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn pattern_parser_equals_the_recursive_reference(items in arb_items()) {
        let text = text_of(&items);
        prop_assert_eq!(pattern::parse(&text).unwrap(), reference(&items), "{}", text);
    }

    #[test]
    fn pattern_parser_never_panics(text in "[()wrxS0-9 \n,#-]{0,300}") {
        let _ = pattern::parse(&text);
    }

    #[test]
    fn readers_never_panic_on_bytes_after_a_compression_header(tail in proptest::collection::vec(any::<u8>(), 0..300), zstd in any::<bool>(), format in proptest::option::of(0usize..9)) {
        let mut bytes = if zstd { vec![0x28, 0xb5, 0x2f, 0xfd] } else { vec![0x1f, 0x8b, 8, 0] };
        bytes.extend_from_slice(&tail);
        let formats = ftl_sim::trace::parse::FORMATS;
        let o = TraceOptions { format: format.map(|i| formats[i].0), ..opts() };
        let _ = feed_all(&bytes, o);
    }
}

/// Issue 34: every count has the CLI's cap, in the function the CLI and the wasm
/// `crash_sweep` both call (2^64 − 1 random points trapped the wasm module, 10^8 ran
/// unbounded; a step of 2^32 became 0 on 32-bit wasm).
#[test]
fn cut_point_counts_have_one_cap_for_cli_and_wasm() {
    use ftl_sim::crash::Points;
    use ftl_sim::limits::{at_most, cut_points, MAX_POOL_BASELINE, MAX_RANDOM_POINTS};
    let e = |r: Result<Points, String>| r.map(|_| ()).unwrap_err();
    for n in [u64::MAX, 100_000_000, MAX_RANDOM_POINTS + 1] {
        let m = e(cut_points(false, None, Some(n), 1));
        assert!(m.contains("at most 10000000 cut points") && !m.contains('\n'), "{m}");
    }
    assert!(matches!(cut_points(false, None, Some(MAX_RANDOM_POINTS), 1), Ok(Points::Random { n: 10_000_000, .. })));
    assert!(e(cut_points(false, Some(0), None, 1)).contains("at least 1"));
    assert!(e(cut_points(false, Some(1 << 32), None, 1)).contains("at most 4294967295"));
    assert!(matches!(cut_points(false, Some(7), None, 1), Ok(Points::Every(7))));
    assert!(matches!(cut_points(true, None, None, 1), Ok(Points::All)));
    assert!(e(cut_points(false, None, None, 1)).contains("choose the cut points"));
    assert_eq!(
        at_most("--pool-baseline", u64::MAX, MAX_POOL_BASELINE).unwrap_err(),
        format!("--pool-baseline {}: at most 10000000", u64::MAX)
    );
}

/// A `limit` past the request cap is refused (it kept every page of a record of 2^40
/// pages and trapped the wasm module), as is a `max_errors` past its cap.
#[test]
fn trace_options_past_their_caps_are_refused() {
    let o = TraceOptions { limit: u64::MAX, ..opts() };
    let (_, r) = feed_all(b"0,0,4503599627370496,w,0.0\n", o);
    assert_eq!(r.unwrap_err(), format!("limit {}: at most 20000000 page requests are kept", u64::MAX));
    let o = TraceOptions { max_errors: usize::MAX, skip_bad_lines: true, ..opts() };
    let (_, r) = feed_all(b"0,0,4096,w,0.0\n", o);
    assert!(r.unwrap_err().contains("at most 10000 bad lines are listed"));
}

/// A trace error is one line: the message, the first bad line and how many more (it
/// printed up to 21 lines).
#[test]
fn trace_errors_are_one_line_with_the_count_of_others() {
    let mut text = String::from("0,0,4096,w,0.0\n");
    for _ in 0..10 {
        text.push_str("0,0,x,w,0.0\n");
    }
    let e = err_of(text.as_bytes(), opts());
    assert!(e.starts_with("10 malformed lines in the umass trace"), "{e}");
    assert!(e.contains("; first: line 2, column 5: expected the size") && e.ends_with("(and 9 more bad lines)"), "{e}");
    // Past max_errors the parse stops: still one line.
    for _ in 0..30 {
        text.push_str("0,0,x,w,0.0\n");
    }
    let e = err_of(text.as_bytes(), opts());
    assert!(!e.contains('\n') && e.starts_with("at least 20 malformed lines"), "{e}");
    // One bad line: no count.
    let e = err_of(b"0,0,4096,w,0.0\n0,0,x,w,0.0\n", opts());
    assert!(!e.contains('\n') && !e.contains("more bad"), "{e}");
    // A pattern's error names itself once.
    let e = err_of(b"w0 w1\n  q7", opts());
    assert_eq!(e.matches("line 2").count(), 1, "{e}");
}

/// Scenario files: a UTF-8 byte-order mark is skipped (it gave "expected value at line 1
/// column 1"); /dev/zero is refused at its first byte and endless whitespace at the size
/// limit, without reading on (`ftl run --scenario /dev/zero` grew to 4.1 GB).
#[test]
fn scenario_files_are_read_bounded_and_a_bom_is_skipped() {
    use ftl_sim::limits::MAX_SCENARIO_BYTES;
    use ftl_sim::scenario::{read_json_value, Scenario};
    let json = r#"{"scheme":"page","workload":{"kind":"uniform","n":10}}"#;
    let bom = format!("\u{feff}{json}");
    assert_eq!(Scenario::from_json(&bom).unwrap().scheme, "page");
    let v = read_json_value(bom.as_bytes(), MAX_SCENARIO_BYTES, "s.json").unwrap();
    assert_eq!(v["scheme"], "page");
    // The first of a file of rows (one per line).
    let rows = format!("{json}\n{json}\n");
    assert_eq!(read_json_value(rows.as_bytes(), MAX_SCENARIO_BYTES, "rows").unwrap()["scheme"], "page");
    let mut zeros = std::io::Read::take(std::io::repeat(0), 1 << 40);
    let e = read_json_value(&mut zeros, MAX_SCENARIO_BYTES, "/dev/zero").unwrap_err();
    assert_eq!(e, "invalid scenario /dev/zero: expected value at line 1 column 1");
    assert!(zeros.limit() > (1 << 40) - (1 << 20), "read on after the first byte");
    let mut spaces = std::io::Read::take(std::io::repeat(b' '), 1 << 40);
    let e = read_json_value(&mut spaces, 1 << 20, "spaces").unwrap_err();
    assert_eq!(e, "spaces is larger than 1 MB: not a scenario file?");
    assert!((1u64 << 40) - spaces.limit() <= (1 << 20) + 1, "read past the limit");
    assert_eq!(read_json_value(&b""[..], 1 << 20, "e").unwrap_err(), "e is empty");
}
