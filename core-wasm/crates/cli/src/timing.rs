//! The timing-model flags (`--timing`, `--time-scale`, `--rate`, `--spacing`,
//! `--arrival-seed`, `--time-unit`, `--request-timeline`) and the timing block of the
//! text output (docs/timing.md).

use clap::Args;
use ftl_sim::metrics::{KindTimingSummary, TailSummary, TimingMetrics};
use ftl_sim::sim::Simulator;
use ftl_sim::timing::{Model, Spacing, TimingConfig};
use ftl_sim::trace::parse::TimeUnit;

#[derive(Args, Clone, Debug, Default)]
pub(crate) struct TimingArgs {
    /// Timing model: closed (each request starts when the previous ends; the papers'
    /// tables) or open (requests arrive at the trace's times or --rate and queue for the chip).
    #[arg(long, value_name = "closed|open")]
    pub(crate) timing: Option<String>,
    /// Open model, trace times: multiply every gap between arrivals by F (0.5 = twice as
    /// fast). `sweep`: a comma-separated list.
    #[arg(long, value_name = "F", value_delimiter = ',', allow_negative_numbers = true)]
    pub(crate) time_scale: Vec<f64>,
    /// Open model: host requests per second instead of the trace's times (needed for
    /// generated workloads). Implies --timing open. `sweep`: a list, e.g. 1000,5000.
    #[arg(long, value_name = "N", value_delimiter = ',', allow_negative_numbers = true)]
    pub(crate) rate: Vec<f64>,
    /// With --rate: fixed (evenly spaced) or poisson arrivals.
    #[arg(long, value_name = "fixed|poisson")]
    pub(crate) spacing: Option<String>,
    /// Seed of the Poisson arrivals.
    #[arg(long, value_name = "S")]
    pub(crate) arrival_seed: Option<u64>,
    /// Unit of the trace's timestamps, instead of the format's (s, ms, us, ns, filetime;
    /// MQSim's DiskSim-layout traces are in ns).
    #[arg(long, value_name = "UNIT")]
    pub(crate) time_unit: Option<String>,
    /// Write every host request's times to this CSV file
    /// (`request,op,first_lpn,pages,arrival_us,start_us,wait_us,service_us,gc_us,response_us`).
    #[arg(long, value_name = "FILE")]
    pub(crate) request_timeline: Option<std::path::PathBuf>,
}

impl TimingArgs {
    /// The one model of `ftl run` (one value of each list).
    pub(crate) fn config(&self) -> Result<TimingConfig, String> {
        for (name, n) in [("rate", self.rate.len()), ("time-scale", self.time_scale.len())] {
            if n > 1 {
                return Err(format!("give one --{name} value (use `ftl sweep` for several)"));
            }
        }
        self.config_with(self.time_scale.first().copied(), self.rate.first().copied())
    }

    /// Every model of a sweep (time scale × rate, in the order given); None: closed.
    pub(crate) fn options(&self) -> Result<Vec<Option<TimingConfig>>, String> {
        let opt = |v: &[f64]| -> Vec<Option<f64>> {
            if v.is_empty() {
                vec![None]
            } else {
                v.iter().copied().map(Some).collect()
            }
        };
        let mut out = Vec::new();
        for scale in opt(&self.time_scale) {
            for rate in opt(&self.rate) {
                let c = self.config_with(scale, rate)?;
                out.push((c != TimingConfig::default()).then_some(c));
            }
        }
        Ok(out)
    }

    fn config_with(&self, time_scale: Option<f64>, rate: Option<f64>) -> Result<TimingConfig, String> {
        let mut c = TimingConfig::default();
        if let Some(m) = &self.timing {
            c.model = Model::from_name(m)?;
        } else if rate.is_some() {
            c.model = Model::Open;
        }
        if let Some(f) = time_scale {
            if !(f.is_finite() && f > 0.0) {
                return Err(format!("--time-scale {f}: the time scale must be a positive number"));
            }
            c.time_scale = f;
        }
        if let Some(r) = rate {
            if !(r.is_finite() && r > 0.0) {
                return Err(format!("--rate {r}: the arrival rate must be a positive number of requests per second"));
            }
        }
        if self.spacing.is_some() && rate.is_none() {
            return Err("--spacing sets how --rate arrivals are spaced: give --rate N (requests per second)".into());
        }
        if time_scale.is_some() && rate.is_some() {
            return Err("--time-scale scales a trace's own arrival times and --rate replaces them: give one".into());
        }
        if self.time_unit.is_some() && rate.is_some() {
            return Err("--time-unit reads a trace's own arrival times and --rate replaces them: give one".into());
        }
        let poisson = self.spacing.as_deref().is_some_and(|s| s.trim().eq_ignore_ascii_case("poisson"));
        if self.arrival_seed.is_some() && !poisson {
            return Err("--arrival-seed seeds Poisson arrivals: add --spacing poisson".into());
        }
        c.rate = rate;
        c.spacing = match self.spacing.as_deref().map(|s| s.trim().to_ascii_lowercase()) {
            None => Spacing::Fixed,
            Some(s) if s == "fixed" => Spacing::Fixed,
            Some(s) if s == "poisson" => Spacing::Poisson,
            Some(o) => return Err(format!("unknown spacing '{o}': expected fixed or poisson")),
        };
        if let Some(s) = self.arrival_seed {
            c.seed = s;
        }
        if let Some(u) = &self.time_unit {
            c.time_unit = Some(TimeUnit::from_word(u)?);
        }
        // A flag the model would ignore is refused (issue 38, item 6: `--spacing poisson`
        // without `--rate` was silently ignored).
        if c.model == Model::Closed {
            let open_only = [
                ("--rate", rate.is_some()),
                ("--time-scale", time_scale.is_some()),
                ("--spacing", self.spacing.is_some()),
                ("--arrival-seed", self.arrival_seed.is_some()),
                ("--time-unit", self.time_unit.is_some()),
            ];
            if let Some((name, _)) = open_only.iter().find(|(_, given)| *given) {
                let fix = if self.timing.is_some() { "not with --timing closed" } else { "add --timing open" };
                return Err(format!("{name} is for the open timing model: {fix}"));
            }
        }
        c.check()?;
        Ok(c)
    }
    /// The model for a run's `RowOptions` (None: the default, closed).
    pub(crate) fn option(&self) -> Result<Option<TimingConfig>, String> {
        let c = self.config()?;
        Ok((c != TimingConfig::default()).then_some(c))
    }
    /// Writes `--request-timeline` after the run.
    pub(crate) fn write_request_timeline(&self, sim: &Simulator) -> Result<(), String> {
        use std::fmt::Write as _;
        let Some(path) = &self.request_timeline else { return Ok(()) };
        let mut out =
            String::from("request,op,first_lpn,pages,arrival_us,start_us,wait_us,service_us,gc_us,response_us\n");
        let us = |ns: u64| ns as f64 / 1000.0;
        for h in sim.host_timeline().unwrap_or(&[]) {
            let (op, lpn) = match sim.request(h.first_page as usize) {
                Some(ftl_sim::trace::Request::Read { lpn }) => ("r", lpn.to_string()),
                Some(ftl_sim::trace::Request::Write { lpn }) => ("w", lpn.to_string()),
                _ => ("state", String::new()),
            };
            let _ = writeln!(
                out,
                "{},{op},{lpn},{},{},{},{},{},{},{}",
                h.index + 1,
                h.pages,
                us(h.arrival_ns),
                us(h.start_ns),
                us(h.wait_ns()),
                us(h.service_ns()),
                us(h.gc_ns),
                us(h.response_ns())
            );
        }
        std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

fn tail(t: &TailSummary) -> String {
    format!(
        "p50 {:.1} p90 {:.1} p99 {:.1} p99.9 {:.1} max {:.1} (mean {:.1})",
        t.p50, t.p90, t.p99, t.p999, t.max, t.mean
    )
}

fn kind(name: &str, k: &KindTimingSummary) {
    if k.requests == 0 {
        return;
    }
    println!("  {name} requests      {} ({} pages)", k.requests, k.pages);
    println!("    response (us)    {}", tail(&k.response_us));
    println!("    wait (us)        {}", tail(&k.wait_us));
    println!("    service (us)     {}", tail(&k.service_us));
    println!("    waited {}, delayed by GC {} ({:.2} %)", k.waited, k.delayed_by_gc, 100.0 * k.delayed_by_gc_share);
}

/// The timing block of `ftl run`'s text output.
pub(crate) fn print_timing(t: &TimingMetrics) {
    let how = match (t.model, t.arrivals) {
        ("open", "trace") => format!("open: arrivals at the trace's times x {}", t.time_scale),
        ("open", a) => format!("open: {a} arrivals at {} requests/s", t.rate_per_s.unwrap_or(0.0)),
        _ => "closed: each request starts when the previous ends".to_string(),
    };
    println!("timing ({how}); {} host requests", t.requests);
    kind("read ", &t.read);
    kind("write", &t.write);
}
