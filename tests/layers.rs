//! The library's layers, read from its sources: no import circle between the top-level
//! modules of src/, none between the files of a folder (but those listed, each with its
//! reason), and no source file of the library or the command past a length a reader
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

/// What lib.rs re-exports: each name, with the top-level module it comes from. A glob
/// (`pub use metrics::*`) re-exports the names that module's own `pub use`s export.
fn reexports(modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for (module, name) in pub_uses(&read(&root().join("src/lib.rs"))) {
        assert!(
            modules.contains(&module),
            "lib.rs re-exports from `{module}`, which is not a module of src/"
        );
        if name == "*" {
            let folder = root().join("src").join(&module).join("mod.rs");
            let file = root().join("src").join(format!("{module}.rs"));
            let own = read(if folder.exists() { &folder } else { &file });
            for (_, name) in pub_uses(&own).into_iter().filter(|(_, n)| n != "*") {
                names.insert(name, module.clone());
            }
        } else {
            names.insert(name, module);
        }
    }
    names
}

/// The names a file's `pub use` statements export, each with the first segment of its path.
fn pub_uses(source: &str) -> Vec<(String, String)> {
    let code = code_only(source);
    let mut names = Vec::new();
    for statement in code.split("pub use ").skip(1) {
        let path = &statement[..statement.find(';').expect("a `pub use` ends with `;`")];
        let module = leading_ident(path);
        let brace = path.find('{');
        let elements = match brace {
            Some(b) => group_elements(&path[b..]).0,
            None => vec![path],
        };
        for element in elements.iter().map(|e| e.trim()).filter(|e| !e.is_empty()) {
            // The name a path or a `path as name` exports.
            let name = element.rsplit([':', ' ']).next().unwrap_or(element);
            names.push((module.to_string(), name.to_string()));
        }
    }
    names
}

/// The modules `code` names through `crate::`, each resolved to its top-level module.
fn referenced(
    code: &str, modules: &BTreeSet<String>, reexports: &BTreeMap<String, String>,
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

/// One circle per knot of `graph` (modules that reach each other), with the files behind
/// each step.
fn circles(graph: &Graph) -> Vec<String> {
    let reach: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reachable(graph, m))).collect();
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
        let circle = shortest_circle(graph, m, &knot);
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
    circles
}

#[test]
fn no_import_circle_between_modules() {
    let circles = circles(&module_graph());
    assert!(
        circles.is_empty(),
        "the top-level modules of src/ import each other in a circle:\n{}",
        circles.join("\n")
    );
}

/// Folders of src/ whose files may import each other in a circle, each with its reason
/// (docs/design.md says more). An entry that no longer applies fails the test, so that the
/// list only shrinks.
const FILE_CIRCLES: &[(&str, &str)] = &[(
    "row",
    "the RowMetric trait's provided methods run the pass, which is generic over the trait",
)];

/// The module path of a file under src/: `labelwise/micro/mod.rs` is `[labelwise, micro]`,
/// `labelwise/pairs.rs` is `[labelwise, pairs]`.
fn module_path(inner: &Path) -> Vec<String> {
    let mut parts: Vec<String> = inner
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop().expect("a file name");
    let stem = file.strip_suffix(".rs").expect("a .rs file");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The paths that `s` (what follows `prefix::`) names, brace groups expanded.
fn paths_after(prefix: &[String], s: &str, out: &mut Vec<Vec<String>>) {
    let s = s.trim_start();
    if s.starts_with('{') {
        for element in group_elements(s).0 {
            paths_after(prefix, element, out);
        }
        return;
    }
    let name = leading_ident(s);
    if name.is_empty() || name == "self" {
        out.push(prefix.to_vec());
        return;
    }
    let mut path = prefix.to_vec();
    path.push(name.to_string());
    match s[name.len()..].trim_start().strip_prefix("::") {
        Some(rest) => paths_after(&path, rest, out),
        None => out.push(path),
    }
}

/// The modules `code`, the code of the module at `here`, names through `crate::`, `super::`
/// and `self::`: each path cut to its longest prefix that is a module. A name a folder's
/// mod.rs re-exports counts as the folder's.
fn referenced_modules(
    code: &str, here: &[String], modules: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let mut paths = Vec::new();
    for keyword in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(keyword) {
            let before = &code[..at];
            if before.ends_with(is_ident) || before.ends_with("::") {
                continue; // `mycrate::`, or the second `super::` of `super::super::`
            }
            let mut base: Vec<String> = match keyword {
                "crate::" => Vec::new(),
                "super::" => here[..here.len().saturating_sub(1)].to_vec(),
                _ => here.to_vec(),
            };
            let mut rest = &code[at + keyword.len()..];
            while let Some(after) = rest.trim_start().strip_prefix("super::") {
                base.pop();
                rest = after;
            }
            paths_after(&base, rest, &mut paths);
        }
    }
    paths
        .into_iter()
        .filter_map(|path| {
            (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p))
        })
        .collect()
}

#[test]
fn no_import_circle_between_files_of_a_folder() {
    let src = root().join("src");
    let files: Vec<(PathBuf, Vec<String>)> = rust_files(&src)
        .into_iter()
        .map(|f| {
            let path = module_path(f.strip_prefix(&src).expect("a file under src/"));
            (f, path)
        })
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
    // Each top-level folder's graph: its files, and which of them each names. A folder's
    // mod.rs and the files under it name each other as a module and its parts do, which is
    // not counted.
    let mut folders: BTreeMap<String, Graph> = BTreeMap::new();
    for (file, here) in files.iter().filter(|(_, here)| here.len() > 1) {
        let code = without_test_items(&code_only(&read(file)));
        for target in referenced_modules(&code, here, &modules) {
            let common = here.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == 0 || common >= here.len() || common >= target.len() {
                continue; // top-level modules (the test above), or a module and its own parts
            }
            let graph = folders.entry(here[0].clone()).or_default();
            let (from, to) = (here.join("/"), target.join("/"));
            graph.entry(to.clone()).or_default();
            let steps = graph.entry(from).or_default();
            steps.entry(to).or_default().insert(relative(file));
        }
    }
    let allowed: BTreeMap<&str, &str> = FILE_CIRCLES.iter().copied().collect();
    let mut problems = Vec::new();
    for (folder, graph) in &folders {
        let circles = circles(graph);
        match (circles.is_empty(), allowed.contains_key(folder.as_str())) {
            (false, false) => problems.push(format!(
                "the files of src/{folder}/ import each other in a circle:\n{}",
                circles.join("\n")
            )),
            (true, true) => problems.push(format!(
                "src/{folder}/ has no circle any more: remove it from FILE_CIRCLES"
            )),
            _ => {}
        }
    }
    for folder in allowed.keys().filter(|f| !folders.contains_key(**f)) {
        problems.push(format!(
            "FILE_CIRCLES names src/{folder}/, which has no files"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
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
