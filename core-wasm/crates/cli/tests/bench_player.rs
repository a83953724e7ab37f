//! `ftl bench --player`: the player's path as the app's "Run to end" takes it (issue 37
//! item 5: the native figure the wasm player path is compared with) runs the same
//! requests to the same flash operations as the full-speed loop, past the point where the
//! run log goes request by request (GC has begun), with no wrong read (`bench` fails on one).

use crate::common;
use common::*;
use serde_json::Value;

fn bench(scheme: &str, player: bool) -> Value {
    // 64 x 16 pages, 6,000 writes: several times the chip, so GC and merges run.
    let scenario = format!(
        r#"{{"scheme":"{scheme}","chip":{{"preset":"fastcheck","blocks":64,"pages_per_block":16}},"params":{{}},"workload":{{"kind":"uniform","n":6000,"seed":7}}}}"#
    );
    let mut args = vec!["bench", "--scenario", &scenario, "--runs", "1"];
    if player {
        args.push("--player");
    }
    let o = ftl(&args);
    assert_eq!(code(&o), 0, "ftl bench {scheme} player={player}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("one JSON object")
}

#[test]
fn player_path_runs_the_loops_requests_and_operations() {
    for scheme in ["page", "bast", "rftl", "nftl", "ltftl", "dftl"] {
        let (full, player) = (bench(scheme, false), bench(scheme, true));
        assert_eq!(player["requests"], 6000, "{scheme}");
        assert_eq!(player["requests"], full["requests"], "{scheme}");
        assert_eq!(player["flash_ops"], full["flash_ops"], "{scheme}");
        assert_eq!((&player["path"], &full["path"]), (&Value::from("player"), &Value::from("full_speed")));
        // The player's path keeps keyframes (at step 0 at least); the loop none.
        assert!(player["keyframes"].as_u64().unwrap() >= 1, "{scheme}: {}", player["keyframes"]);
        assert_eq!(full["keyframes"], 0, "{scheme}");
        // More flash operations than requests: cleaning ran, so the run log left its quiet stretches.
        assert!(full["flash_ops"].as_u64().unwrap() > 6000, "{scheme}: {}", full["flash_ops"]);
    }
}
