//! `ftl run --channels C --dies-per-channel W --stripe page|block` (docs/ssd.md): one die
//! prints today's bytes; every scheme on 4 dies reads back what it wrote.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn ftl(args: &[&str]) -> Output {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    Command::new(env!("CARGO_BIN_EXE_ftl")).args(args).current_dir(repo).output().expect("the ftl binary runs")
}

fn ok(args: &[&str]) -> Output {
    let o = ftl(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

const SCHEMES: [&str; 5] = ["page", "bast", "fast", "nftl", "gftl"];

#[test]
fn one_die_prints_todays_bytes() {
    for s in SCHEMES {
        for timing in [&[][..], &["--rate", "3000", "--spacing", "poisson"][..]] {
            let text = [
                &["run", "--scheme", s, "--gen", "uniform:n=3000,seed=2,read_ratio=0.3", "--pages-per-block", "16"][..],
                timing,
            ]
            .concat();
            let base = [&text[..], &["--json"]].concat();
            let today = ok(&base).stdout;
            for stripe in ["page", "block"] {
                if s != "page" && stripe == "page" {
                    continue;
                }
                let one = [&base[..], &["--channels", "1", "--dies-per-channel", "1", "--stripe", stripe]].concat();
                assert_eq!(ok(&one).stdout, today, "{s} {timing:?} --stripe {stripe}");
            }
            let out = ok(&[&text[..], &["--channels", "1"]].concat()).stdout;
            assert_eq!(out, ok(&text).stdout, "{s}: human output unchanged");
            assert!(!String::from_utf8_lossy(&out).contains("device "), "one die: no device section");
        }
    }
}

#[test]
fn every_scheme_on_four_dies_has_no_wrong_reads() {
    let schemes: Vec<&str> = ftl_sim::ftl::SCHEMES.iter().map(|s| s.0).collect();
    for &s in &schemes {
        let o = ok(&[
            "run",
            "--scheme",
            s,
            "--gen",
            "uniform:n=4000,seed=3,read_ratio=0.4",
            "--blocks",
            "128",
            "--pages-per-block",
            "16",
            "--channels",
            "2",
            "--dies-per-channel",
            "2",
            "--rate",
            "2000",
            "--json",
        ]);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let d = &v["device"];
        assert_eq!(v["wrong_reads"], 0, "{s}");
        assert_eq!(
            (d["channels"].as_u64(), d["dies_per_channel"].as_u64(), d["dies"].as_u64()),
            (Some(2), Some(2), Some(4))
        );
        let paged = ftl_sim::ftl::entry(s).unwrap().mapping == ftl_sim::ftl::Mapping::Page;
        let want = if paged { "page" } else { "block" };
        assert_eq!(d["stripe"], want, "{s}: the default stripe unit");
        let per = d["per_die"].as_array().unwrap();
        assert_eq!(per.len(), 4);
        let pages: u64 = per.iter().map(|x| x["page_requests"].as_u64().unwrap()).sum();
        assert_eq!(pages, 4000, "{s}: every page request ran on one die");
        assert!(per.iter().all(|x| x["utilisation"].as_f64().unwrap() > 0.0), "{s}");
        assert_eq!(d["read"]["count"].as_u64().unwrap() + d["write"]["count"].as_u64().unwrap(), 4000);
    }
    assert!(schemes.len() >= 5, "{schemes:?}");
    // Human output names the shape and each die.
    let o = ok(&["run", "--scheme", "page", "--gen", "uniform:n=500", "--channels", "4", "--dies-per-channel", "2"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("4 channels x 2 dies = 8 dies, stripe page"), "{text}");
}

#[test]
fn page_striping_of_block_mapped_schemes_and_unsupported_flags_are_refused() {
    let base = ["run", "--gen", "uniform:n=100", "--channels", "2", "--dies-per-channel", "2"];
    let o = ftl(&[&base[..], &["--scheme", "bast", "--stripe", "page"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("use --stripe block"));
    // A chain's options that need one chip's workload feed are refused on a device.
    let chain = ["crash-sweep", "--scheme", "ltftl", "--chain", "5", "--channels", "2", "--time-shift"];
    let o = ftl(&chain);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not available with a chain on a device of several dies"));
    let o = ftl(&[
        "crash-sweep",
        "--scheme",
        "fast",
        "--gen",
        "uniform:n=100",
        "--random",
        "5",
        "--channels",
        "2",
        "--stripe",
        "page",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("use --stripe block"));
    let o = ftl(&[&base[..], &["--scheme", "page", "--stripe", "plane"]].concat());
    assert_eq!(o.status.code(), Some(2));
}

/// The workload is planned over the device's logical space, D × a die's (whole stripe
/// units), and the row's scenario carries the shape: `ftl run --scenario ROW` replays
/// it on the same device, byte for byte.
#[test]
fn the_workload_spans_the_device_and_a_row_replays_on_it() {
    let dir = std::env::temp_dir().join(format!("ftl-ssd-row-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (s, stripe) in [("page", "page"), ("bast", "block"), ("dftl", "block")] {
        let base = ["run", "--scheme", s, "--gen", "uniform:n=3000,seed=1,read_ratio=0.5", "--blocks", "128"];
        let base = [&base[..], &["--pages-per-block", "16", "--rate", "3000", "--json"]].concat();
        let one: Value = serde_json::from_slice(&ok(&base).stdout).unwrap();
        let die = one["setup"]["logical_pages"].as_u64().unwrap();
        let dev = ["--channels", "2", "--dies-per-channel", "2", "--stripe", stripe, "--channel-mb-s", "100"];
        let out = ok(&[&base[..], &dev[..]].concat()).stdout;
        let v: Value = serde_json::from_slice(&out).unwrap();
        let whole = 4 * (die / 16 * 16);
        assert_eq!(v["setup"]["logical_pages"].as_u64(), Some(whole), "{s}: D x a die's space");
        assert_eq!(v["setup"]["workload_space"].as_u64(), Some(whole), "{s}");
        assert_eq!(v["device"]["logical_pages"].as_u64(), Some(whole), "{s}");
        assert_eq!(v["device"]["bus_mb_s"], 100);
        assert_eq!(v["device"]["channel_transfer_us"], 5.12, "512 B at 100 MB/s");
        assert_eq!(
            v["scenario"]["device"],
            serde_json::json!({"channels": 2, "dies_per_channel": 2, "stripe": stripe, "bus_mb_s": 100}),
            "{s}"
        );
        let row = dir.join(format!("{s}.json"));
        std::fs::write(&row, &out).unwrap();
        let again = ok(&["run", "--scenario", row.to_str().unwrap(), "--json"]).stdout;
        assert_eq!(String::from_utf8_lossy(&again), String::from_utf8_lossy(&out), "{s}: replayed on the same device");
        // The device comes from the row: flags beside it are refused.
        let o = ftl(&["run", "--scenario", row.to_str().unwrap(), "--channels", "2"]);
        assert_eq!(o.status.code(), Some(2), "{s}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The app's device (`scenario::device::stepper`, what the wasm `DeviceSession` builds)
/// stepped to the end ends where `ftl run --scenario FILE --json` does (the file's `device`:
/// 4 x 1 page-striped, 2 x 2 block-striped): the
/// same requests on the same dies (per die: page requests, erases, write amplification,
/// wrong reads) and the same host responses (read and write p99, count).
#[test]
fn the_apps_device_is_the_clis() {
    use ftl_sim::scenario::Scenario;
    use ftl_sim::ssd::{Shape, Stripe};
    for (scheme, stripe, c, w) in [("page", Stripe::Page, 4, 1), ("fast", Stripe::Block, 2, 2)] {
        let text = format!(
            r#"{{"scheme":"{scheme}","chip":{{"preset":"classroom"}},"workload":{{"kind":"uniform","n":6000,"seed":5,"read_ratio":0.3}},"device":{{"channels":{c},"dies_per_channel":{w},"stripe":"{}"}}}}"#,
            stripe.name()
        );
        let path = std::env::temp_dir().join(format!("ftl-app-device-{}-{scheme}.json", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        // The scenario carries the shape (its `device`), as the app's link does.
        let o = ok(&["run", "--scenario", path.to_str().unwrap(), "--json"]);
        std::fs::remove_file(&path).ok();
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let d = &v["device"];

        let sc = Scenario::from_json(&text).unwrap();
        let mut dev = ftl_sim::scenario::device::stepper(&sc, Shape::new(c, w, stripe), 16 << 20).unwrap();
        dev.goto(dev.total()).unwrap();
        let m = dev.moment(0);
        let per = d["per_die"].as_array().unwrap();
        assert_eq!(per.len(), dev.dies().len());
        let mut erases = 0;
        for (i, s) in dev.dies().iter().enumerate() {
            let met = s.view().metrics();
            let p = &per[i];
            assert_eq!(p["page_requests"].as_u64(), Some(m.dies[i].requests as u64), "{scheme} die {i}");
            assert_eq!(p["erases"].as_u64(), Some(met.erases), "{scheme} die {i}");
            assert_eq!(p["write_amplification"].as_f64(), Some(met.write_amplification), "{scheme} die {i}");
            assert_eq!(p["wrong_reads"].as_u64(), Some(s.view().host.wrong_reads), "{scheme} die {i}");
            erases += met.erases;
        }
        assert!(erases > 0, "{scheme}: the run reaches garbage collection on the dies");
        assert_eq!(d["host_requests"].as_u64(), Some(dev.hosts.len() as u64));
        for (kind, read) in [("read", true), ("write", false)] {
            let mut r: Vec<u64> =
                dev.hosts.iter().filter(|h| h.read == read).map(|h| h.done_ns - h.arrival_ns).collect();
            r.sort_unstable();
            let n = r.len();
            assert_eq!(d[kind]["count"].as_u64(), Some(n as u64), "{scheme} {kind}");
            // The nearest-rank p99 (ssd::Responses).
            let p99 = r[((0.99 * n as f64).ceil() as usize).clamp(1, n) - 1] as f64 / 1000.0;
            assert_eq!(d[kind]["p99_us"].as_f64(), Some(p99), "{scheme} {kind} p99");
        }
    }
}
