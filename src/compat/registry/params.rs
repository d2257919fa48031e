//! A parameter's effective value ([`ParamValue`], as echoed in the output), and the parsing
//! and naming of the values the presets take.

use core::fmt;

use crate::error::{Error, LookupError};
use crate::metrics;
use crate::row::metric::RowRule;
use crate::ties::{TieGrouping, TiePolicy};

/// A parameter's effective value, as echoed in the output.
///
/// # Example
/// ```
/// use rankmetrics::registry::ParamValue;
/// assert_eq!(ParamValue::Str("last".into()).to_string(), "last");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A name.
    Str(String),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Number(x) => write!(f, "{x}"),
            ParamValue::Str(s) => f.write_str(s),
        }
    }
}

pub(super) fn invalid(key: &str, value: &str, expected: &'static str) -> LookupError {
    LookupError::InvalidParam {
        key: key.into(),
        value: value.into(),
        expected,
    }
}

pub(super) fn tie_name(t: TiePolicy) -> String {
    match t {
        TiePolicy::Random(seed) => format!("random:{seed}"),
        t => t.name().to_string(),
    }
}

pub(super) fn parse_bool(key: &str, v: &str) -> Result<bool, LookupError> {
    match v {
        "true" | "True" | "TRUE" | "1" => Ok(true),
        "false" | "False" | "FALSE" | "0" => Ok(false),
        _ => Err(LookupError::InvalidParam {
            key: key.into(),
            value: v.into(),
            expected: "true or false",
        }),
    }
}

pub(super) fn parse_grouping(v: &str) -> Result<TieGrouping, LookupError> {
    match v {
        "exact" => Ok(TieGrouping::Exact),
        "weka" => Ok(TieGrouping::WEKA),
        _ => match v.parse::<f64>() {
            Ok(eps) if eps >= 0.0 && eps.is_finite() => Ok(TieGrouping::Within(eps)),
            _ => Err(LookupError::InvalidParam {
                key: "grouping".into(),
                value: v.into(),
                expected: "exact, weka, or a non-negative tolerance such as 1e-6",
            }),
        },
    }
}

pub(super) fn grouping_name(g: TieGrouping) -> String {
    match g {
        TieGrouping::Exact => "exact".into(),
        TieGrouping::Within(eps) => format!("{eps:e}"),
    }
}

pub(super) fn parse_rule(key: &str, v: &str) -> Result<RowRule, LookupError> {
    match v {
        "formula" => Ok(RowRule::Formula),
        "skip" => Ok(RowRule::Skip),
        "reject" => Ok(RowRule::Reject),
        _ => match v.parse::<f64>() {
            Ok(x) => Ok(RowRule::Value(x)),
            Err(_) => Err(LookupError::InvalidParam {
                key: key.into(),
                value: v.into(),
                expected: "formula, skip, reject, or a number",
            }),
        },
    }
}

pub(super) fn rule_name(r: RowRule) -> String {
    match r {
        RowRule::Formula => "formula".into(),
        RowRule::Skip => "skip".into(),
        RowRule::Reject => "reject".into(),
        RowRule::Value(x) => format!("{x}"),
    }
}

/// A truncation parameter: absent means none (and is not echoed); otherwise an integer >= 1.
pub(super) fn parse_k(
    key: &'static str, value: Option<&str>, echo: &mut Vec<(&'static str, ParamValue)>,
) -> Result<Option<usize>, LookupError> {
    let Some(v) = value else { return Ok(None) };
    match v.parse::<usize>() {
        Ok(k) if k >= 1 => {
            echo.push((key, ParamValue::Number(k as f64)));
            Ok(Some(k))
        }
        _ => Err(LookupError::InvalidParam {
            key: key.into(),
            value: v.into(),
            expected: "an integer >= 1",
        }),
    }
}

/// The error of a graded metric's `with_k`, which fails only for k = 0: `parse_k` has
/// rejected that already, so this is not reached in practice.
pub(super) fn zero_k(key: &'static str) -> impl Fn(Error) -> LookupError {
    move |_| LookupError::InvalidParam {
        key: key.into(),
        value: "0".into(),
        expected: "an integer >= 1",
    }
}

/// DCG's `log_base` parameter, default 2, echoed.
pub(super) fn with_log_base(
    dcg: metrics::Dcg, value: Option<&str>, echo: &mut Vec<(&'static str, ParamValue)>,
) -> Result<metrics::Dcg, LookupError> {
    let v = value.unwrap_or("2");
    let dcg = v
        .parse::<f64>()
        .ok()
        .and_then(|base| dcg.with_log_base(base).ok())
        .ok_or_else(|| LookupError::InvalidParam {
            key: "log_base".into(),
            value: v.into(),
            expected: "a finite number > 1",
        })?;
    echo.push(("log_base", ParamValue::Number(dcg.log_base())));
    Ok(dcg)
}
