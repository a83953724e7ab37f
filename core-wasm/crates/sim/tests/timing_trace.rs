//! Trace records keep their timestamps (units per format, docs/traces.md) and a record
//! of several pages is one host request (timing.rs's Schedule).

use ftl_sim::trace::parse::{parse_bytes, Format, TimeUnit, TraceOptions};

fn opts(page_bytes: u32) -> TraceOptions {
    TraceOptions { page_bytes, ..TraceOptions::default() }
}

/// Arrivals in ns and the page runs of each host request.
fn schedule(text: &[u8], o: TraceOptions) -> (Option<Vec<u64>>, Vec<std::ops::Range<usize>>) {
    let r = parse_bytes(text, o).unwrap_or_else(|e| panic!("{e}"));
    let s = r.schedule();
    assert_eq!(s.pages(), r.len());
    assert_eq!(s.requests() as u64, r.records);
    assert_eq!(r.host_requests(), r.records);
    (s.arrivals().map(|a| a.to_vec()), (0..s.requests()).map(|k| s.pages_of(k)).collect())
}

#[test]
fn each_format_keeps_its_timestamps_in_its_unit() {
    // UMass/SPC: seconds. 3584 B = 7 pages of 512 B, 3072 B = 6, 512 B = 1.
    let (a, runs) = schedule(b"0,303567,3584,w,0.5\n0,55590,3072,r,0.501234\n1,303574,512,W,0.502\n", opts(512));
    assert_eq!(a, Some(vec![0, 1_234_000, 2_000_000]));
    assert_eq!(runs, vec![0..7, 7..13, 13..14]);
    // MSR Cambridge: FILETIME ticks of 100 ns.
    let msr =
        b"128166372003061629,hm,1,Read,383496192,32768,4453\n128166372003061729,hm,1,Write,3154552832,4096,1621\n";
    let (a, runs) = schedule(msr, opts(4096));
    assert_eq!(a, Some(vec![0, 10_000]));
    assert_eq!(runs, vec![0..8, 8..10]);
    // blkparse: seconds; only the D lines are requests.
    let blk = "  8,0 3 1 1.000000000 697 Q WS 223490 + 8 [k]\n  8,0 3 3 1.000002000 697 D WS 223490 + 8 [k]\n  8,0 1 6 1.000210000 812 D R 1024 + 16 [cat]\n";
    let (a, runs) = schedule(blk.as_bytes(), opts(512));
    assert_eq!(a, Some(vec![0, 208_000]));
    assert_eq!(runs, vec![0..8, 8..24]);
    // DiskSim: milliseconds.
    let (a, runs) = schedule(b"2.000 0 2048 8 0\n3.500 0 4096 16 1\n", opts(512));
    assert_eq!(a, Some(vec![0, 1_500_000]));
    assert_eq!(runs, vec![0..8, 8..24]);
    // Alibaba: microseconds.
    let (a, _) = schedule(b"1,W,0,8192,100\n1,R,4096,4096,175\n", opts(4096));
    assert_eq!(a, Some(vec![0, 75_000]));
    // FIU: nanoseconds.
    let fiu = b"89855000 4 syslogd 1 8 W 6 0 x\n89856500 4 syslogd 9 8 R 6 0 y\n";
    let (a, _) = schedule(fiu, opts(4096));
    assert_eq!(a, Some(vec![0, 1500]));
    // CSV with a time column: seconds unless told.
    let (a, runs) = schedule(b"time,op,lba,sectors\n0.1,write,16,16\n0.2,read,16,1\n", opts(4096));
    assert_eq!(a, Some(vec![0, 100_000_000]));
    assert_eq!(runs, vec![0..2, 2..3]);
    let (a, _) = schedule(
        b"time,op,lba,sectors\n10,write,16,16\n25,read,16,1\n",
        TraceOptions { time_unit: Some(TimeUnit::Us), ..opts(4096) },
    );
    assert_eq!(a, Some(vec![0, 15_000]));
}

#[test]
fn untimed_workloads_have_one_request_per_item_and_no_arrivals() {
    // CSV without a time column, and the pattern language.
    let (a, runs) = schedule(b"op,offset (bytes),size (bytes)\nW,0,8192\nR,4096,4096\n", opts(4096));
    assert_eq!(a, None);
    assert_eq!(runs, vec![0..2, 2..3]);
    let (a, runs) = schedule(b"w0 w4 (w1 r1)x2", opts(4096));
    assert_eq!(a, None);
    assert_eq!(runs.len(), 6);
}

#[test]
fn time_unit_overrides_the_format() {
    // MQSim writes the DiskSim format in nanoseconds: --time-unit ns.
    let t = b"938513000 4 264719034 16 0\n938828000 3 197570570 16 0\n";
    let (a, _) = schedule(t, opts(4096));
    assert_eq!(a, Some(vec![0, 315_000 * 1_000_000]));
    let (a, _) = schedule(t, TraceOptions { time_unit: Some(TimeUnit::Ns), ..opts(4096) });
    assert_eq!(a, Some(vec![0, 315_000]));
    assert_eq!(parse_bytes(t, opts(4096)).unwrap().time_unit, Some(TimeUnit::Ms));
    assert_eq!(parse_bytes(t, opts(4096)).unwrap().format, Some(Format::Disksim));
    assert_eq!(TimeUnit::from_word("us"), Ok(TimeUnit::Us));
    assert!(TimeUnit::from_word("fortnights").is_err());
}

#[test]
fn the_request_limit_keeps_whole_records() {
    // 3 records of 2 pages; a limit of 5 pages keeps 2 whole records.
    let t = b"0 0 0 16 0\n1 0 16 16 0\n2 0 32 16 0\n";
    let r = parse_bytes(t, TraceOptions { limit: 5, ..opts(4096) }).unwrap();
    let s = r.schedule();
    assert_eq!((s.pages(), s.requests()), (4, 2));
    assert_eq!(s.arrivals(), Some(&[0, 1_000_000][..]));
}
