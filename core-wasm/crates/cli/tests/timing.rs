//! `ftl run`'s timing flags (docs/timing.md): the model is named in the JSON and the
//! text output, open arrivals from a trace's times or a rate, the request timeline.

use crate::common;
use common::*;

const CAMERA: &[&str] = &[
    "run",
    "--scheme",
    "bast",
    "--log-blocks",
    "2",
    "--chip",
    "fast2007",
    "--blocks",
    "32",
    "--trace",
    "traces/camera.disksim",
];

#[test]
fn the_model_is_named_and_records_count_once() {
    let closed = json(&[CAMERA, &["--json"]].concat());
    let t = &closed["timing"];
    assert_eq!(t["model"], "closed");
    // camera.disksim: 271 records (docs: traces/README.md) of up to 64 pages.
    assert_eq!(t["requests"], 271);
    assert_eq!(t["write"]["requests"].as_u64().unwrap() + t["read"]["requests"].as_u64().unwrap(), 271);
    assert_eq!(t["write"]["pages"], closed["host_writes"]);
    assert_eq!(t["write"]["waited"], 0);
    for k in ["p50", "p90", "p99", "p999", "max", "mean"] {
        assert!(t["write"]["response_us"][k].is_number(), "{k}");
    }
    let open = json(&[CAMERA, &["--json", "--timing", "open"]].concat());
    assert_eq!((open["timing"]["model"].as_str(), open["timing"]["arrivals"].as_str()), (Some("open"), Some("trace")));
    assert_eq!(open["erases"], closed["erases"], "the model changes no chip figure");
    assert_eq!(open["latency_us"], closed["latency_us"], "page-level latency stays");
    // Text output names the model.
    let o = ftl(&[CAMERA, &["--timing", "open", "--time-scale", "0.001"]].concat());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("timing (open: arrivals at the trace's times x 0.001)"), "{text}");
    assert!(text.contains("response (us)") && text.contains("p99.9"), "{text}");
}

#[test]
fn rate_request_timeline_and_errors() {
    let dir = std::env::temp_dir().join(format!("ftl-timing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("req.csv");
    let m = json(&[
        "run",
        "--scheme",
        "page",
        "--gen",
        "uniform:n=500,seed=1",
        "--rate",
        "2000",
        "--spacing",
        "poisson",
        "--json",
        "--request-timeline",
        csv.to_str().unwrap(),
    ]);
    assert_eq!((m["timing"]["model"].as_str(), m["timing"]["arrivals"].as_str()), (Some("open"), Some("poisson")));
    assert_eq!(m["timing"]["rate_per_s"], 2000.0);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("request,op,first_lpn,pages,arrival_us,start_us,wait_us,service_us,gc_us,response_us")
    );
    assert_eq!(lines.count(), 500);
    // Open without times or a rate; a bad unit.
    let o = ftl(&["run", "--scheme", "page", "--gen", "uniform:n=50", "--timing", "open"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("arrival rate"));
    let o = ftl(&[CAMERA, &["--time-unit", "fortnights"]].concat());
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
