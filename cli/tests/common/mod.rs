//! What the command's integration tests share: scratch directories, a run of the binary and
//! its output read back.
#![allow(dead_code)] // each test file uses its own part

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// A directory under the system temp dir, unique to this process and call, removed on drop.
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "rankmetrics-cli-{}-{name}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch { dir }
    }

    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What one run of the binary gave.
#[derive(Debug)]
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_rankmetrics"))
        .args(args)
        .output()
        .unwrap();
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

impl Run {
    /// The `results` of a `--format json` run.
    pub fn results(&self) -> Vec<Value> {
        let doc: Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout));
        doc["results"].as_array().unwrap().clone()
    }

    /// Each result's value (`Ok`) or error (`Err`), by metric name.
    pub fn outcomes(&self) -> Vec<(String, Result<Value, String>)> {
        self.results()
            .into_iter()
            .map(|r| {
                let outcome = match (&r.get("value"), &r.get("error")) {
                    (Some(v), None) => Ok((*v).clone()),
                    (None, Some(Value::String(e))) => Err(e.clone()),
                    _ => panic!("a result needs a value or an error: {r}"),
                };
                (r["metric"].as_str().unwrap().to_string(), outcome)
            })
            .collect()
    }

    /// The JSON output without its `provenance`, which names the files read: what two runs on
    /// the same data in different files (or the built-in example) print alike.
    pub fn json_values(&self) -> Value {
        let mut doc: Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout));
        let provenance = doc.as_object_mut().unwrap().remove("provenance");
        assert!(provenance.is_some(), "no provenance: {}", self.stdout);
        doc
    }

    /// The `provenance` of a JSON output.
    pub fn provenance(&self) -> Value {
        let doc: Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout));
        doc["provenance"].clone()
    }

    /// Asserts a status-2 failure naming `path` followed by `located` (":line:column: ...").
    pub fn assert_file_error(&self, path: &Path, located: &str) {
        self.assert_unusable(&format!("{}{located}", path.display()));
    }

    /// Asserts a status-2 failure whose message contains `needle`.
    pub fn assert_unusable(&self, needle: &str) {
        assert_eq!(self.status, 2, "{self:?}");
        assert!(self.stdout.is_empty(), "{self:?}");
        assert!(self.stderr.starts_with("rankmetrics: error: "), "{self:?}");
        assert!(self.stderr.contains(needle), "{needle:?} not in {self:?}");
    }
}

/// `text`, gzip-compressed.
pub fn gzip(text: &str) -> Vec<u8> {
    use std::io::Write as _;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap()
}

/// The fields of a CSV line, unquoted.
pub fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}
