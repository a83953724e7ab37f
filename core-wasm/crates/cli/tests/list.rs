//! `ftl list` names exactly the schemes of ftl::REGISTRY, in its order.

use std::process::Command;

#[test]
fn ftl_list_shows_the_registry() {
    let out = Command::new(env!("CARGO_BIN_EXE_ftl")).arg("list").output().expect("runs ftl list");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let schemes: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "schemes:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim())
        .collect();
    let want: Vec<String> =
        ftl_sim::ftl::REGISTRY.iter().map(|e| format!("{:8} {}", e.id, e.description).trim().to_string()).collect();
    assert_eq!(schemes, want);
}
