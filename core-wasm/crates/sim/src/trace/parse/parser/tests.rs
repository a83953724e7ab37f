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
