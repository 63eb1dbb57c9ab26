//! The command table is the one home of every key: the README's key table is generated from it
//! and must match, and no key is bound twice where both rows could fire.

use steerlab::app::commands::{readme_tables, COMMANDS};

/// `STEERLAB_UPDATE_README=1` rewrites the table instead of failing.
#[test]
fn readme_key_table_is_the_generated_one() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let begin = "<!-- keys:begin (generated from src/app/commands.rs; a test checks it) -->\n";
    let end = "<!-- keys:end -->";
    let start = readme.find(begin).expect("README has the keys:begin marker") + begin.len();
    let stop = readme[start..].find(end).expect("README has the keys:end marker") + start;
    let expected = readme_tables();
    if std::env::var("STEERLAB_UPDATE_README").is_ok_and(|v| v == "1") && readme[start..stop] != expected {
        let updated = format!("{}{expected}{}", &readme[..start], &readme[stop..]);
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"), updated).unwrap();
        return;
    }
    assert!(
        readme[start..stop] == expected,
        "the README's key table differs from the command table; replace it with:\n{expected}"
    );
}

#[test]
fn no_two_rows_share_a_key_and_a_condition() {
    for (i, a) in COMMANDS.iter().enumerate() {
        for b in &COMMANDS[i + 1..] {
            let shared = a.keys.iter().any(|k| b.keys.contains(k));
            assert!(
                !(shared && a.when == b.when),
                "{} and {} share a key under the same condition: only the first could ever fire",
                a.name,
                b.name
            );
        }
    }
}

#[test]
fn every_command_has_a_key_a_name_and_help() {
    for spec in COMMANDS {
        assert!(!spec.keys.is_empty(), "{} has no key", spec.name);
        assert!(!spec.name.is_empty() && !spec.help.is_empty(), "{:?}", spec.id);
    }
}
