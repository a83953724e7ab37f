//! docs/cli.md and the CLI agree on flags (issue 36, item 4: one parameter = one
//! declaration): every scheme parameter of the registry has its flag in the synopses of
//! `ftl run` and `ftl sweep`, and every flag the page names is one some `ftl` command takes
//! (read from `ftl <command> --help`, which clap builds from the declarations).

use std::collections::BTreeSet;
use std::process::Command;

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/cli.md");
    std::fs::read_to_string(path).expect("reads docs/cli.md")
}

/// `--long-flag` words of a text.
fn flags(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("--") {
        let start = i + at;
        let mut end = start + 2;
        while end < b.len() && (b[end].is_ascii_lowercase() || b[end].is_ascii_digit() || b[end] == b'-') {
            end += 1;
        }
        let before_ok = start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'-');
        if before_ok && end > start + 2 && b[start + 2].is_ascii_lowercase() {
            out.insert(text[start..end].trim_end_matches('-').to_string());
        }
        i = end.max(start + 2);
    }
    out
}

fn ftl(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ftl")).args(args).output().expect("runs ftl");
    assert!(out.status.success(), "ftl {args:?} failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The long flags of every `ftl` command.
fn cli_flags() -> BTreeSet<String> {
    let top = ftl(&["--help"]);
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.contains(&"run") && commands.contains(&"sweep"), "ftl --help lists no commands: {top}");
    commands.iter().flat_map(|c| flags(&ftl(&[c, "--help"]))).collect()
}

/// The first fenced block after the heading `## `ftl <command>``: its synopsis.
fn synopsis<'a>(doc: &'a str, command: &str) -> &'a str {
    let heading = format!("## `ftl {command}`\n");
    let at = doc.find(&heading).unwrap_or_else(|| panic!("docs/cli.md has no heading {heading:?}"));
    let rest = &doc[at + heading.len()..];
    let open = rest.find("```").expect("a synopsis block") + 3;
    let body = &rest[open..];
    &body[..body.find("```").expect("the synopsis block ends")]
}

/// The flag of a `SchemeParams` key, as setup.rs makes it.
fn flag_of(key: &str) -> String {
    format!("--{}", key.replace('_', "-"))
}

#[test]
fn every_registry_parameter_has_its_flag_in_the_run_and_sweep_synopses() {
    let doc = doc();
    let keys: BTreeSet<&str> = ftl_sim::ftl::REGISTRY.iter().flat_map(|e| e.params.iter().map(|p| p.key)).collect();
    let declared: BTreeSet<&str> = ftl_sim::ftl::SchemeParams::FIELDS.iter().map(|f| f.key).collect();
    assert_eq!(keys, declared, "the registry's parameters are the declared SchemeParams fields");
    let run_help = flags(&ftl(&["run", "--help"]));
    for command in ["run", "sweep"] {
        let listed = flags(synopsis(&doc, command));
        let missing: Vec<String> = keys.iter().map(|k| flag_of(k)).filter(|f| !listed.contains(f)).collect();
        assert!(missing.is_empty(), "docs/cli.md's `ftl {command}` synopsis lacks {missing:?}");
    }
    for k in &keys {
        assert!(run_help.contains(&flag_of(k)), "ftl run --help lacks {}", flag_of(k));
    }
}

#[test]
fn every_flag_docs_cli_md_names_is_a_flag_of_ftl() {
    let doc = doc();
    let known = cli_flags();
    // Lines that run other programs: cargo (the build line), Slurm's sbatch and its
    // #SBATCH directives (the scale-out recipe).
    let ours = doc
        .lines()
        .filter(|l| !(l.contains("cargo build") || l.starts_with("#SBATCH") || l.starts_with("sbatch ")))
        .collect::<Vec<_>>()
        .join("\n");
    let unknown: Vec<String> = flags(&ours).into_iter().filter(|f| !known.contains(f)).collect();
    assert!(unknown.is_empty(), "docs/cli.md names flags no ftl command takes: {unknown:?}");
}

#[test]
fn the_flag_reader_finds_flags_and_skips_other_dashes() {
    let got = flags("ftl run --log-blocks 4 [--k K] a -- b x--y `--op`; --json.");
    let want: BTreeSet<String> = ["--log-blocks", "--k", "--op", "--json"].iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want);
}
