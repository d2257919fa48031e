//! The fields of a line of delimited text: how they are separated, split and unquoted, and
//! the one first line that reads both as column names and as a sample (`0,1,...,n-1`).

use std::borrow::Cow;

/// How fields of a text line are separated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Separator {
    /// Commas when the first non-blank line has one, else whitespace.
    Detect,
    Comma,
    Tab,
    Whitespace,
}

/// Splits a line into fields, trimmed and unquoted (`"a ""b"""` is `a "b"`); a separator
/// inside quotes is part of the field.
pub(super) fn fields(line: &str, separator: Separator) -> Vec<Cow<'_, str>> {
    if !line.contains('"') {
        fn plain(f: &str) -> Cow<'_, str> {
            Cow::Borrowed(f.trim())
        }
        return match separator {
            Separator::Comma => line.split(',').map(plain).collect(),
            Separator::Tab => line.split('\t').map(plain).collect(),
            Separator::Whitespace | Separator::Detect => {
                line.split_whitespace().map(Cow::Borrowed).collect()
            }
        };
    }
    let is_separator = |c: char| match separator {
        Separator::Comma => c == ',',
        Separator::Tab => c == '\t',
        Separator::Whitespace | Separator::Detect => c.is_whitespace(),
    };
    let whitespace = matches!(separator, Separator::Whitespace | Separator::Detect);
    let mut out = Vec::new();
    let mut field = String::new();
    let (mut quoted, mut in_field) = (false, false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                c => field.push(c),
            }
        } else if is_separator(c) {
            if !whitespace || in_field {
                out.push(Cow::Owned(field.trim().to_string()));
                field.clear();
            }
            in_field = false;
        } else if c == '"' {
            quoted = true;
            in_field = true;
        } else {
            field.push(c);
            in_field = true;
        }
    }
    if !whitespace || in_field {
        out.push(Cow::Owned(field.trim().to_string()));
    }
    out
}

/// The separator of a file whose first line is `first`.
pub(super) fn first_line_separator(separator: Separator, first: &str) -> Separator {
    match separator {
        Separator::Detect if first.contains(',') => Separator::Comma,
        s => s,
    }
}

/// Whether `fields` are exactly `0`, `1`, ..., `n-1` (integers as pandas writes them, n >= 2):
/// the header pandas writes for a DataFrame made from a NumPy array, whose column names are
/// those integers, when saved with `index=False`, and as well a sample of labels or integer
/// scores 0..n-1. One column is left alone: a header `0` (a Series saved without its index)
/// cannot be told from a sample or a weight of 0, and a weight file has no other form.
pub(super) fn counts_columns<S: AsRef<str>>(fields: &[S]) -> bool {
    fields.len() >= 2
        && fields
            .iter()
            .enumerate()
            .all(|(i, f)| f.as_ref() == i.to_string())
}
