//! The device flags beyond `ftl run`'s basic run (issue 40, items 5 and 6; docs/cli.md,
//! docs/ssd.md): `ftl crash-sweep` (cut points and chains) on 2 × 2 dies for every scheme,
//! `ftl run --recovery`, `--timeline`, `--request-timeline` and `--row` on a device, and
//! `ftl sweep` with device shapes as lists. One die prints today's bytes throughout.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn ftl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ftl")).args(args).current_dir(repo()).output().expect("the ftl binary runs")
}

fn ok(args: &[&str]) -> Output {
    let o = ftl(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

fn json(args: &[&str]) -> Value {
    serde_json::from_slice(&ok(args).stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

const TWO_BY_TWO: [&str; 4] = ["--channels", "2", "--dies-per-channel", "2"];

fn schemes() -> Vec<&'static str> {
    ftl_sim::ftl::SCHEMES.iter().map(|s| s.0).collect()
}

/// A chain of cuts on 2 × 2 dies, every scheme: every cut stops every die, every die
/// recovers clean, nothing acknowledged is lost, no read is wrong, no die is stuck, no
/// die's pools beyond the cut-free run's.
#[test]
fn chains_on_two_by_two_dies_lose_nothing_for_every_scheme() {
    for s in schemes() {
        for seed in ["1", "2"] {
            let args = [
                &["crash-sweep", "--scheme", s, "--blocks", "64", "--pages-per-block", "16"][..],
                &TWO_BY_TWO,
                &["--chain", "150", "--seed", seed, "--json"],
            ]
            .concat();
            let v = json(&args);
            let what = format!("{s} seed {seed}: {v}");
            assert_eq!(v["cuts"], 150, "{what}");
            assert_eq!(v["recovered_correctly"], 150, "{what}");
            assert_eq!(v["acked_writes_lost"], 0, "{what}");
            assert_eq!(v["wrong_reads"], 0, "{what}");
            assert_eq!(v["torn_mapped"], 0, "{what}");
            assert_eq!(v["errors"], 0, "{what}");
            assert_eq!(v["stuck"], false, "{what}");
            // Every die's pools within the cut-free run's bound after every recovery.
            assert_eq!(v["pool_excess"], 0, "{what}");
            assert!(!v["pools"].as_array().unwrap().is_empty(), "{what}");
            assert!(v["stopped"].is_null(), "{what}");
            assert_eq!(v["device"]["channels"], 2, "{what}");
            // Cuts fell between requests and inside them, and requests ran between cuts.
            assert!(v["between"].as_u64().unwrap() > 10 && v["mid_request"].as_u64().unwrap() > 10, "{what}");
            assert!(v["requests_run"].as_u64().unwrap() > 150, "{what}");
            assert!(v["recut_inside_recovery"].as_u64().unwrap() > 0, "{what}");
        }
    }
}

/// Cut points of a device run (operation boundaries over every die in host order), each
/// on its own copy of the dies, recut inside the cut die's recovery.
#[test]
fn cut_points_on_two_by_two_dies_recover() {
    for s in ["page", "fast", "dftl", "nftl", "fastcheck"] {
        let args = [
            &["crash-sweep", "--scheme", s, "--gen", "uniform:n=1500,seed=4,read_ratio=0.3", "--blocks", "64"][..],
            &["--pages-per-block", "16", "--every", "9", "--json"],
            &TWO_BY_TWO,
        ]
        .concat();
        let v = json(&args);
        let tried = v["points_tried"].as_u64().unwrap();
        assert!(tried > 100, "{s}: {v}");
        assert_eq!(v["recovered_correctly"].as_u64(), Some(tried), "{s}: {v}");
        assert_eq!((v["acked_writes_lost"].as_u64(), v["wrong_reads"].as_u64()), (Some(0), Some(0)), "{s}");
        assert_eq!(v["recut_points"].as_u64(), Some(tried), "{s}");
        // Every die's operations count: the run's operations are more than the host's pages.
        assert!(v["run_ops"].as_u64().unwrap() >= 1500 * 7 / 10, "{s}: {v}");
        assert_eq!(v["device"]["dies_per_channel"], 2);
    }
}

/// One die: crash-sweep prints what it printed before, byte for byte.
#[test]
fn one_die_crash_sweep_prints_todays_bytes() {
    let sweep = ["crash-sweep", "--scheme", "fast", "--gen", "uniform:n=800,seed=2", "--random", "60", "--json"];
    let chain = ["crash-sweep", "--scheme", "bast", "--chain", "60", "--json"];
    for base in [&sweep[..], &chain[..]] {
        let today = ok(base).stdout;
        let one = ok(&[base, &["--channels", "1", "--dies-per-channel", "1", "--stripe", "block"]].concat()).stdout;
        assert_eq!(one, today, "{base:?}");
        assert!(!String::from_utf8_lossy(&one).contains("\"device\""));
    }
}

/// `ftl run --recovery` on a device: every die recovers from its own chip at each point;
/// the run cut in pieces for the samples is the run whole (same device figures).
#[test]
fn recovery_on_a_device_recovers_every_die() {
    let base = [
        &["run", "--scheme", "fastcheck", "--gen", "uniform:n=3000,seed=2,read_ratio=0.2", "--blocks", "64"][..],
        &["--pages-per-block", "16", "--rate", "2500", "--json"],
        &TWO_BY_TWO,
    ]
    .concat();
    let plain = json(&base);
    assert!(plain["recovery"].is_null());
    let one = json(&[&base[..], &["--recovery"]].concat());
    let four = json(&[&base[..], &["--recovery", "--recovery-samples", "4"]].concat());
    for v in [&one, &four] {
        assert_eq!(v["device"], plain["device"], "recovering between pieces changes no figure of the run");
        let r = &v["recovery"];
        let (read, slowest) = (r["pages_read"].as_u64().unwrap(), r["slowest_die_pages_read"].as_u64().unwrap());
        assert!(read > 0 && slowest > 0, "{r}");
        assert!(slowest <= read && read <= 4 * slowest, "the slowest die's share of the sum: {r}");
        assert!(r["map_pages"].as_u64().unwrap() > 0, "fastcheck writes map pages: {r}");
    }
    // Metadata written by the end of the run: the same however many points recovered.
    assert_eq!(one["recovery"]["map_pages"], four["recovery"]["map_pages"]);
    assert_eq!(one["recovery"]["log_pages"], four["recovery"]["log_pages"]);
    // One die: no slowest-die field (today's bytes).
    let v = json(&["run", "--scheme", "fastcheck", "--gen", "uniform:n=500", "--recovery", "--json"]);
    assert!(v["recovery"]["slowest_die_pages_read"].is_null() && !v["recovery"]["pages_read"].is_null());
}

/// `--timeline` (page requests, with their die) and `--request-timeline` (host requests
/// on the device's clock) agree with the device summary.
#[test]
fn timelines_on_a_device_agree_with_its_summary() {
    let dir = std::env::temp_dir().join(format!("ftl-ssd-timelines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (t, r) = (dir.join("pages.csv"), dir.join("hosts.csv"));
    let args = [
        &["run", "--scheme", "page", "--gen", "uniform:n=2000,seed=3,read_ratio=0.4", "--rate", "3000"][..],
        &["--timeline", t.to_str().unwrap(), "--request-timeline", r.to_str().unwrap(), "--json"],
        &TWO_BY_TWO,
    ]
    .concat();
    let v = json(&args);
    let d = &v["device"];
    let pages = std::fs::read_to_string(&t).unwrap();
    let mut lines = pages.lines();
    assert_eq!(lines.next(), Some("request,op,lpn,total_us,gc_us,die,die_lpn"));
    let mut busy = [0f64; 4];
    let mut count = [0u64; 4];
    let mut n = 0;
    for l in lines {
        let c: Vec<&str> = l.split(',').collect();
        let die: usize = c[5].parse().unwrap();
        let (lpn, local): (u32, u32) = (c[2].parse().unwrap(), c[6].parse().unwrap());
        assert_eq!(ftl_sim::ssd::place(lpn, 4, 1), (die as u32, local), "{l}");
        busy[die] += c[3].parse::<f64>().unwrap();
        count[die] += 1;
        n += 1;
    }
    assert_eq!(n, 2000);
    for (k, x) in d["per_die"].as_array().unwrap().iter().enumerate() {
        assert_eq!(x["page_requests"].as_u64(), Some(count[k]), "die {k}");
        assert!((x["busy_us"].as_f64().unwrap() - busy[k]).abs() < 0.01, "die {k}: {} vs {}", x["busy_us"], busy[k]);
    }
    let hosts = std::fs::read_to_string(&r).unwrap();
    let mut lines = hosts.lines();
    assert_eq!(
        lines.next(),
        Some("request,op,first_lpn,pages,arrival_us,start_us,wait_us,service_us,gc_us,response_us")
    );
    let mut reads: Vec<f64> = Vec::new();
    let mut worst: f64 = 0.0;
    let mut hosts_n = 0;
    for l in lines {
        let c: Vec<&str> = l.split(',').collect();
        let resp: f64 = c[9].parse().unwrap();
        let (wait, service): (f64, f64) = (c[6].parse().unwrap(), c[7].parse().unwrap());
        assert!((wait + service - resp).abs() < 0.01, "{l}");
        if c[1] == "r" {
            reads.push(resp);
        }
        worst = worst.max(resp);
        hosts_n += 1;
    }
    assert_eq!(d["host_requests"].as_u64(), Some(hosts_n));
    reads.sort_by(f64::total_cmp);
    let p99 = reads[((0.99 * reads.len() as f64).ceil() as usize).clamp(1, reads.len()) - 1];
    assert!((p99 - d["read"]["p99_us"].as_f64().unwrap()).abs() < 0.01, "read p99 {p99} vs {}", d["read"]);
    let max = d["read"]["max_us"].as_f64().unwrap().max(d["write"]["max_us"].as_f64().unwrap());
    assert!((worst - max).abs() < 0.01);
    std::fs::remove_dir_all(&dir).ok();
}

/// `ftl sweep --channels 1,2 --dies-per-channel 1,2`: every shape a row on one request
/// list; a one-die row is `ftl run`'s; a device row's `--list-jobs` line, run alone,
/// prints the sweep's row byte for byte (`--row` on a device).
#[test]
fn a_sweep_takes_device_shapes_as_lists() {
    let flags = [
        &["sweep", "--schemes", "page,fast", "--gen", "uniform:n=1500,seed=1,read_ratio=0.3", "--blocks", "64"][..],
        &["--pages-per-block", "16", "--rate", "2000", "--channels", "1,2", "--dies-per-channel", "1,2"],
    ]
    .concat();
    let out = ok(&[&flags[..], &["--json"]].concat());
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 8, "2 schemes x 4 shapes");
    let rows: Vec<Value> = lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let dies: Vec<u64> = rows.iter().map(|v| v["device"]["dies"].as_u64().unwrap_or(1)).collect();
    assert_eq!(dies, [1, 2, 2, 4, 1, 2, 2, 4]);
    let hash = &rows[0]["setup"]["request_hash"];
    assert!(rows.iter().all(|v| v["setup"]["request_hash"] == *hash), "one request list for every shape");
    assert!(rows.iter().all(|v| v["wrong_reads"] == 0));
    assert_eq!(rows[5]["device"]["stripe"], "block", "fast's own stripe");
    // A one-die row is `ftl run` of its configuration (no device section).
    assert!(rows[0]["device"].is_null() && rows[0]["erases"].is_u64());
    let space = rows[0]["setup"]["space_given"].as_u64().unwrap().to_string();
    let alone = json(
        &[
            &["run", "--scheme", "page", "--gen", "uniform:n=1500,seed=1,read_ratio=0.3", "--blocks", "64"][..],
            &["--pages-per-block", "16", "--rate", "2000", "--space", &space, "--json"],
        ]
        .concat(),
    );
    assert_eq!(alone["erases"], rows[0]["erases"]);
    assert_eq!(alone["timing"], rows[0]["timing"]);
    // The job of row 7 (fast on 2 x 2), run alone: the sweep's row.
    let jobs = ok(&[&flags[..], &["--list-jobs"]].concat());
    let job = std::str::from_utf8(&jobs.stdout).unwrap().lines().nth(7).unwrap().to_string();
    assert!(job.contains("--channels 2 --dies-per-channel 2 --stripe block"), "{job}");
    let cmd = job.replacen("ftl", env!("CARGO_BIN_EXE_ftl"), 1);
    let o = Command::new("bash").arg("-ec").arg(&cmd).current_dir(repo()).output().unwrap();
    assert!(o.status.success(), "{cmd}: {}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim_end(), lines[7]);
    // CSV: the device columns.
    let csv = ok(&[&flags[..], &["--csv"]].concat());
    let text = String::from_utf8_lossy(&csv.stdout);
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let at = |c: &str| header.iter().position(|h| *h == c).unwrap_or_else(|| panic!("no column {c}"));
    let (dies_col, p99) = (at("dies"), at("device_read_p99_us"));
    let row7 = cells(text.lines().nth(8).unwrap());
    assert_eq!(row7.len(), header.len());
    assert_eq!(row7[dies_col], "4");
    assert_eq!(row7[p99].parse::<f64>().ok(), rows[7]["device"]["read"]["p99_us"].as_f64());
    // A one-die sweep's plan (and fingerprint) has no device key.
    assert!(rows[0]["sweep"]["spec"]["channels"].is_array());
    let plain = json(&["sweep", "--schemes", "page", "--gen", "uniform:n=100", "--json"]);
    assert!(plain["sweep"]["spec"]["channels"].is_null() && plain["device"].is_null());
}

/// A CSV line's cells (quoted cells hold commas).
fn cells(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for ch in line.chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}
