//! The scale-out recipes of docs/cli.md run as written (issue 38, item 5): the Slurm
//! job-array script through a stand-in `sbatch` that runs the array's tasks locally, and
//! the GNU parallel line (GNU parallel when installed, else a stand-in on `xargs -P`);
//! `--list-jobs` lines run in reverse order merge to the whole sweep byte for byte.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn ftl_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ftl")).parent().unwrap().to_path_buf()
}

/// A scratch directory with `traces` linked to the repository's (the recipes name
/// `traces/...`), and a `bin` for stand-ins.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ftl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("bin")).unwrap();
    std::os::unix::fs::symlink(repo().join("traces"), d.join("traces")).unwrap();
    d
}

/// Runs a shell script in `dir` with `ftl` (and `dir/bin`) on PATH.
fn sh(dir: &Path, script: &str) -> Output {
    let path = format!("{}:{}:{}", dir.join("bin").display(), ftl_dir().display(), std::env::var("PATH").unwrap());
    Command::new("bash").arg("-ec").arg(script).current_dir(dir).env("PATH", path).output().unwrap()
}

fn ok(o: &Output, what: &str) -> String {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The code block after the marker `<!-- tested: NAME` in docs/cli.md.
fn doc_block(name: &str) -> String {
    let doc = std::fs::read_to_string(repo().join("docs/cli.md")).unwrap();
    let at = doc.find(&format!("<!-- tested: {name}")).unwrap_or_else(|| panic!("marker {name} in docs/cli.md"));
    let rest = &doc[at..];
    let start = rest.find("```sh\n").expect("a sh block after the marker") + 6;
    let end = rest[start..].find("```").unwrap();
    rest[start..start + end].to_string()
}

fn make_executable(p: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(p, text).unwrap();
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The recipes' sweep flags (the `S=` line of a block).
fn sweep_flags(block: &str) -> String {
    let line = block.lines().find(|l| l.starts_with("S=\"")).expect("an S= line");
    line.trim_start_matches("S=\"").trim_end_matches('"').to_string()
}

/// The whole sweep's CSV, run in `dir`.
fn whole_csv(dir: &Path, flags: &str) -> String {
    ok(&sh(dir, &format!("ftl sweep {flags} --csv")), "the whole sweep")
}

/// A stand-in `sbatch`: reads `--array=A-B` (command line or `#SBATCH` line) and runs
/// the script once per task, all at once, with SLURM_ARRAY_TASK_ID / _COUNT set; with
/// `--wait` it returns when all have ended (failing if one failed).
const SBATCH: &str = r#"#!/bin/bash
set -e
array=""; script=""
for a in "$@"; do
  case "$a" in
    --array=*) array="${a#--array=}" ;;
    --wait) ;;
    -*) ;;
    *) script="$a" ;;
  esac
done
[ -n "$array" ] || array=$(sed -n 's/^#SBATCH --array=//p' "$script" | head -1)
lo=${array%-*}; hi=${array#*-}
count=$((hi - lo + 1))
pids=()
for i in $(seq "$lo" "$hi"); do
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$count SLURM_ARRAY_TASK_MIN=$lo SLURM_ARRAY_TASK_MAX=$hi \
    bash "$script" > "shard-$i.log" 2>&1 &
  pids+=($!)
done
echo "Submitted batch job 1"
for p in "${pids[@]}"; do wait "$p"; done
"#;

#[test]
fn the_documented_slurm_array_runs_through_a_stand_in_sbatch() {
    let dir = scratch("slurm");
    let script = doc_block("slurm-script");
    assert!(script.contains("#SBATCH --array=0-3"), "{script}");
    std::fs::write(dir.join("sweep.sbatch"), &script).unwrap();
    make_executable(&dir.join("bin/sbatch"), SBATCH);
    let submit = doc_block("slurm-submit");
    ok(&sh(&dir, &submit), "the documented submit and merge");
    for i in 0..4 {
        assert!(dir.join(format!("shard-{i}.jsonl")).exists(), "task {i} wrote its shard");
    }
    let merged = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    let whole = whole_csv(&dir, &sweep_flags(&script));
    assert_eq!(merged.lines().count(), 7, "a header and 6 rows: {merged}");
    assert_eq!(merged, whole);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_documented_gnu_parallel_recipe_merges_to_the_sweep() {
    let dir = scratch("parallel");
    let recipe = doc_block("gnu-parallel");
    let installed = Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success());
    // The jobs reversed (the last row first), so they finish out of order either way.
    let recipe = recipe.replace("--list-jobs |", "--list-jobs | tac |");
    if !installed {
        eprintln!("GNU parallel is not installed: running the recipe with a stand-in `parallel` on xargs -P");
        // Like GNU parallel's default (--group), each job's output is written whole: a job
        // prints its row line in more than one write(), so bare `xargs -P` children sharing
        // stdout could interleave two rows (seen once with the tests in one binary).
        make_executable(
            &dir.join("bin/parallel"),
            "#!/bin/bash\nexec xargs -d '\\n' -P 4 -I{} bash -c 'o=$({}); exec 9>>.parallel.lock; flock 9; printf \"%s\\n\" \"$o\"'\n",
        );
    }
    ok(&sh(&dir, &recipe), "the documented parallel recipe");
    let merged = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    assert_eq!(merged, whole_csv(&dir, &sweep_flags(&recipe)));
    // The rows came back out of order: merge put them in order by their index.
    let rows = std::fs::read_to_string(dir.join("rows.jsonl")).unwrap();
    let order: Vec<u64> =
        rows.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["row"].as_u64().unwrap()).collect();
    assert_eq!(order.len(), 6);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn list_jobs_run_in_reverse_merge_to_the_whole_sweep_with_recovery_and_timing() {
    let dir = scratch("jobs");
    let flags = "--schemes page,fast,fastcheck --log-blocks 4,6 --gen uniform:n=1500,seed=4 \
                 --recovery --recovery-samples 2 --timing open --rate 1000,4000 --spacing poisson";
    let whole = ok(&sh(&dir, &format!("ftl sweep {flags} --json")), "the sweep");
    let jobs = ok(&sh(&dir, &format!("ftl sweep {flags} --list-jobs")), "the jobs");
    let jobs: Vec<&str> = jobs.lines().collect();
    assert_eq!(jobs.len(), 10, "page × 2 rates, fast and fastcheck × 2 log-block counts × 2 rates");
    for j in &jobs {
        for f in ["--recovery", "--recovery-samples 2", "--timing open", "--spacing poisson", "--row ", "--sweep-spec"]
        {
            assert!(j.contains(f), "{f} in {j}");
        }
    }
    let mut out = String::new();
    for j in jobs.iter().rev() {
        out.push_str(&ok(&sh(&dir, j), j));
    }
    std::fs::write(dir.join("rows.jsonl"), &out).unwrap();
    let merged = ok(&sh(&dir, "ftl merge rows.jsonl"), "merge");
    assert_eq!(merged, whole, "the jobs' rows, merged, are the sweep's rows byte for byte");
    let csv = ok(&sh(&dir, "ftl merge rows.jsonl --csv"), "merge --csv");
    assert_eq!(csv, ok(&sh(&dir, &format!("ftl sweep {flags} --csv")), "sweep --csv"));
    std::fs::remove_dir_all(&dir).ok();
}
