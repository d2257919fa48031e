//! The library's layers, read from its sources: no import circle between the top-level
//! modules of src/, and no source file of the library or the command past a length a reader
//! can hold (except the files listed, each with its reason).
//!
//! A top-level module is a file or a folder directly under src/ (`kernel`, `row`, `metrics`,
//! `compat`, ...); lib.rs only declares and re-exports, and is read to resolve its re-exports.
//! A module depends on another when its code names `crate::<module>`, or an item lib.rs
//! re-exports from that module (`crate::RowMetric`, `crate::{Error, Matrix}`), in `use`
//! statements, paths and macros (`$crate::`). Comments (doc comments and their intra-doc links
//! included) and string literals are not code and do not count; nor does test-only code
//! (`#[cfg(test)]` items), which sits above every layer as the tests in tests/ do.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a source file of src/ or cli/src/ has.
const MAX_LINES: usize = 700;

/// Files allowed past [`MAX_LINES`], each with its reason. An entry that no longer applies
/// (the file is gone or short enough) fails the test, so that the list only shrinks.
const LONG_FILES: &[(&str, &str)] = &[];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every .rs file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` relative to the package root, with `/` separators.
fn relative(path: &Path) -> String {
    let path = path.strip_prefix(root()).unwrap_or(path);
    let parts: Vec<_> = path.iter().map(|p| p.to_string_lossy()).collect();
    parts.join("/")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The text with comments removed and string and character literals emptied: what the
/// compiler reads as code, for the purpose of finding paths in it.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        let after_ident = i > 0 && is_ident(c[i - 1]);
        match c[i] {
            '/' if next == Some('/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if next == Some('*') => {
                let mut depth = 0;
                while i < c.len() {
                    if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                        (depth, i) = (depth + 1, i + 2);
                    } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                        (depth, i) = (depth - 1, i + 2);
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push(' ');
            }
            'r' if !after_ident && matches!(next, Some('"' | '#')) => {
                // A raw string r"..." or r#"..."#; `r#ident` is a raw identifier.
                let hashes = c[i + 1..].iter().take_while(|&&h| h == '#').count();
                if c.get(i + 1 + hashes) != Some(&'"') {
                    out.push(c[i]);
                    i += 1;
                    continue;
                }
                let close: Vec<char> = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                i += 2 + hashes;
                while i < c.len() && !c[i..].starts_with(&close) {
                    i += 1;
                }
                i += close.len();
                out.push_str("\"\"");
            }
            '"' => {
                i += 1;
                while i < c.len() && c[i] != '"' {
                    i += if c[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            '\'' if next == Some('\\') => {
                // An escaped character literal: '\n', '\'', '\u{..}'.
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            }
            '\'' if c.get(i + 2) == Some(&'\'') => {
                i += 3;
                out.push_str("' '");
            }
            ch => {
                // Lifetimes and everything else.
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

/// The end of the item that starts at `from`: its `;` or its closing brace.
fn item_end(c: &[char], from: usize) -> usize {
    let mut i = from;
    while i < c.len() && c[i] != ';' && c[i] != '{' {
        i += 1;
    }
    if i == c.len() || c[i] == ';' {
        return i + 1;
    }
    let mut depth = 0;
    while i < c.len() {
        match c[i] {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The code without its `#[cfg(test)]` items.
fn without_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let c: Vec<char> = code.chars().collect();
    let mark: Vec<char> = MARK.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < c.len() {
        if c[i..].starts_with(&mark) {
            i = item_end(&c, i + mark.len());
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The identifier at the start of `s` (after white space).
fn leading_ident(s: &str) -> &str {
    let s = s.trim_start();
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    &s[..end]
}

/// The top-level elements of the brace group that `s` starts with (`{a, b::{c}, d}`), and
/// the rest of `s` after it.
fn group_elements(s: &str) -> (Vec<&str>, &str) {
    let (mut depth, mut start, mut elements) = (0, 1, Vec::new());
    for (i, ch) in s.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                elements.push(&s[start..i]);
                start = i + 1;
                if ch == '}' {
                    return (elements, &s[i + 1..]);
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    (elements, "")
}

/// The top-level modules: the files (but lib.rs) and folders directly under src/.
fn modules() -> BTreeSet<String> {
    let src = root().join("src");
    let entries = fs::read_dir(&src).expect("src/ is readable");
    let mut modules = BTreeSet::new();
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().expect("a name").to_string_lossy();
        if path.is_dir() {
            modules.insert(name.into_owned());
        } else if let Some(stem) = name.strip_suffix(".rs").filter(|&s| s != "lib") {
            modules.insert(stem.to_string());
        }
    }
    modules
}

/// What lib.rs re-exports: each name, with the top-level module it comes from.
fn reexports(modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let code = code_only(&read(&root().join("src/lib.rs")));
    let mut names = BTreeMap::new();
    for statement in code.split("pub use ").skip(1) {
        let path = &statement[..statement.find(';').expect("a `pub use` ends with `;`")];
        let module = leading_ident(path);
        assert!(
            modules.contains(module),
            "lib.rs re-exports from `{module}`, which is not a module of src/"
        );
        let brace = path.find('{');
        let elements = match brace {
            Some(b) => group_elements(&path[b..]).0,
            None => vec![path],
        };
        for element in elements.iter().map(|e| e.trim()).filter(|e| !e.is_empty()) {
            // The name a path or a `path as name` exports.
            let name = element.rsplit([':', ' ']).next().unwrap_or(element);
            names.insert(name.to_string(), module.to_string());
        }
    }
    names
}

/// The modules `code` names through `crate::`, each resolved to its top-level module.
fn referenced(
    code: &str,
    modules: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
) -> Result<BTreeSet<String>, String> {
    let resolve = |name: &str| -> Result<Option<String>, String> {
        if name == "self" || name.is_empty() {
            return Ok(None);
        }
        match modules.get(name).or_else(|| reexports.get(name)) {
            Some(module) => Ok(Some(module.clone())),
            None => Err(format!(
                "`crate::{name}` is neither a module of src/ nor a re-export of lib.rs"
            )),
        }
    };
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        if code[..at].ends_with(is_ident) {
            continue; // `mycrate::`
        }
        let rest = code[at + "crate::".len()..].trim_start();
        let names = if rest.starts_with('{') {
            let (elements, _) = group_elements(rest);
            elements.into_iter().map(leading_ident).collect()
        } else {
            vec![leading_ident(rest)]
        };
        for name in names {
            found.extend(resolve(name)?);
        }
    }
    Ok(found)
}

/// Which modules each top-level module names, with the files that name them.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn module_graph() -> Graph {
    let modules = modules();
    let reexports = reexports(&modules);
    let src = root().join("src");
    let mut graph: Graph = modules
        .iter()
        .map(|m| (m.clone(), BTreeMap::new()))
        .collect();
    let mut unresolved = Vec::new();
    for file in rust_files(&src) {
        let inner = file.strip_prefix(&src).expect("a file under src/");
        let first = inner.iter().next().expect("a path").to_string_lossy();
        let module = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        if module == "lib" {
            continue;
        }
        let code = without_test_items(&code_only(&read(&file)));
        match referenced(&code, &modules, &reexports) {
            Ok(targets) => {
                for target in targets.into_iter().filter(|t| *t != module) {
                    let files = graph.entry(module.clone()).or_default();
                    files.entry(target).or_default().insert(relative(&file));
                }
            }
            Err(e) => unresolved.push(format!("{}: {e}", relative(&file))),
        }
    }
    assert!(unresolved.is_empty(), "{}", unresolved.join("\n"));
    graph
}

/// The modules reachable from `from` (itself included).
fn reachable(graph: &Graph, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([from.to_string()]);
    let mut pending = vec![from.to_string()];
    while let Some(m) = pending.pop() {
        for next in graph[&m].keys() {
            if seen.insert(next.clone()) {
                pending.push(next.clone());
            }
        }
    }
    seen
}

/// A shortest circle through `start` within `members`, as the list of modules along it.
fn shortest_circle(graph: &Graph, start: &str, members: &BTreeSet<String>) -> Vec<String> {
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = VecDeque::from([start.to_string()]);
    while let Some(m) = queue.pop_front() {
        for next in graph[&m].keys().filter(|n| members.contains(*n)) {
            if next == start {
                let mut path = vec![m.clone()];
                while let Some(p) = parent.get(path.last().expect("a module")) {
                    path.push(p.clone());
                }
                path.reverse();
                path.push(start.to_string());
                return path;
            }
            if !parent.contains_key(next) && next != start {
                parent.insert(next.clone(), m.clone());
                queue.push_back(next.clone());
            }
        }
    }
    unreachable!("every module of a strongly connected set lies on a circle")
}

#[test]
fn no_import_circle_between_modules() {
    let graph = module_graph();
    let reach: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reachable(&graph, m))).collect();
    // Modules that reach each other form one knot; report one circle per knot, with the files
    // behind each step.
    let mut reported = BTreeSet::new();
    let mut circles = Vec::new();
    for (m, from_m) in &reach {
        if reported.contains(*m) {
            continue;
        }
        let knot: BTreeSet<String> = from_m
            .iter()
            .filter(|other| reach[other].contains(*m))
            .cloned()
            .collect();
        if knot.len() < 2 {
            continue;
        }
        let circle = shortest_circle(&graph, m, &knot);
        let steps: Vec<String> = circle
            .windows(2)
            .map(|w| {
                let files: Vec<_> = graph[&w[0]][&w[1]].iter().cloned().collect();
                format!("  {} -> {}: {}", w[0], w[1], files.join(", "))
            })
            .collect();
        circles.push(format!(
            "circle {} (modules that reach each other: {})\n{}",
            circle.join(" -> "),
            knot.iter().cloned().collect::<Vec<_>>().join(", "),
            steps.join("\n")
        ));
        reported.extend(knot);
    }
    assert!(
        circles.is_empty(),
        "the top-level modules of src/ import each other in a circle:\n{}",
        circles.join("\n")
    );
}

#[test]
fn source_files_stay_short() {
    let allowed: BTreeMap<&str, &str> = LONG_FILES.iter().copied().collect();
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for dir in ["src", "cli/src"] {
        for file in rust_files(&root().join(dir)) {
            let (name, lines) = (relative(&file), read(&file).lines().count());
            match allowed.get(name.as_str()) {
                Some(_) if lines > MAX_LINES => {
                    seen.insert(name);
                }
                Some(_) => problems.push(format!(
                    "{name}: {lines} lines, no longer past {MAX_LINES}: remove it from LONG_FILES"
                )),
                None if lines > MAX_LINES => problems.push(format!(
                    "{name}: {lines} lines, more than {MAX_LINES}: split it by what it does"
                )),
                None => {}
            }
        }
    }
    for (name, reason) in LONG_FILES {
        if !seen.contains(*name) && !root().join(name).is_file() {
            problems.push(format!(
                "{name} ({reason}) is gone: remove it from LONG_FILES"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_sees_code_only() {
    let text = "use crate::a; // crate::b\n/// crate::c\nlet s = \"crate::d\";\n\
                let r = r#\"crate::e\"#; let q = '\"'; /* crate::f */ crate::{g, h::{i}};";
    let code = code_only(text);
    assert!(code.contains("crate::a") && code.contains("crate::{g, h::{i}}"));
    for hidden in ["crate::b", "crate::c", "crate::d", "crate::e", "crate::f"] {
        assert!(!code.contains(hidden), "{hidden} in {code:?}");
    }
    let code =
        without_test_items("fn a() {}\n#[cfg(test)]\nmod tests { use crate::x; }\nfn b() {}");
    assert_eq!(code, "fn a() {}\n\nfn b() {}");
    let modules: BTreeSet<String> = ["a", "g", "h"].map(String::from).into();
    let reexports = BTreeMap::from([("Thing".to_string(), "a".to_string())]);
    let found = referenced("crate::{g, Thing}; $crate::h::x!()", &modules, &reexports).unwrap();
    assert_eq!(found, ["a", "g", "h"].map(String::from).into());
    assert!(referenced("crate::Unknown", &modules, &reexports).is_err());
}
