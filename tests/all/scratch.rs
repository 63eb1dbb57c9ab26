//! A fresh directory for one test, under the system's temporary directory: removed when the
//! test passes, kept when it fails (for what the test left there: scenes, pictures, the
//! window's rectangles), so that a run of the suite leaves nothing behind but its failures.
use std::ffi::OsStr;
use std::fs;
use std::ops::Deref;
use std::path::{Path, PathBuf};

pub(crate) struct Scratch(PathBuf);

impl Scratch {
    /// `steerlab-LABEL-PID`, emptied if an earlier run left it.
    pub(crate) fn new(label: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("steerlab-{label}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The file `file` in the directory.
    pub(crate) fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }

    /// The names of the directory's entries, sorted.
    pub(crate) fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

#[test]
fn a_scratch_directory_is_gone_after_a_passing_test_and_kept_after_a_failing_one() {
    let passing = Scratch::new("scratch-passing");
    fs::write(passing.path("a.json"), "{}").unwrap();
    assert_eq!(passing.names(), ["a.json"]);
    let dir = passing.to_path_buf();
    drop(passing);
    assert!(!dir.exists(), "{} left behind", dir.display());

    let kept = std::thread::spawn(|| {
        let failing = Scratch::new("scratch-failing");
        fs::write(failing.path("evidence.png"), "").unwrap();
        let dir = failing.to_path_buf();
        std::panic::panic_any(dir);
    })
    .join()
    .expect_err("the thread panics");
    let dir = kept.downcast::<PathBuf>().expect("the directory");
    assert!(dir.join("evidence.png").exists(), "{} removed after a failure", dir.display());
    let _ = fs::remove_dir_all(*dir);
}
