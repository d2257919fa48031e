//! [`Convention`]: the families of presets (this crate's own metrics, or one toolkit's) and
//! their names; their metrics are in the registry's tables (`compat/registry/table.rs`). It sits at the foundation, below the registry that looks
//! presets up, because the crate's [`Error`](crate::Error) names a convention in
//! [`LookupError`](crate::registry::LookupError)'s message.

use core::fmt;

use crate::names::UnknownName;

/// A family of presets: this crate's own metrics, or one toolkit's.
///
/// # Example
/// ```
/// use rankmetrics::registry::Convention;
/// assert_eq!(Convention::parse("mulan"), Some(Convention::Mulan));
/// assert!(Convention::Sklearn.metric_names().contains(&"coverage_error"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Convention {
    /// rankmetrics' own metrics, every option a parameter (tie policy: `--ties`, default max).
    Rankmetrics,
    /// scikit-learn 1.9.
    Sklearn,
    /// torchmetrics 1.9, on float32, float64, float16 or bfloat16 predictions (the score type,
    /// or the `dtype` parameter, decides).
    Torchmetrics,
    /// mldr 0.4.2.
    Mldr,
    /// MULAN (git 43f6389) with the tie grouping of Weka before August 2018 (3.6, 3.7), or of
    /// Weka 3.9 with `weka=3.9`.
    Mulan,
}

impl Convention {
    /// Every convention.
    pub const ALL: [Convention; 5] = [
        Convention::Rankmetrics,
        Convention::Sklearn,
        Convention::Torchmetrics,
        Convention::Mldr,
        Convention::Mulan,
    ];

    /// The name used on the command line and in JSON output.
    ///
    /// # Example
    /// ```
    /// assert_eq!(rankmetrics::registry::Convention::Sklearn.name(), "sklearn");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Convention::Rankmetrics => "rankmetrics",
            Convention::Sklearn => "sklearn",
            Convention::Torchmetrics => "torchmetrics",
            Convention::Mldr => "mldr",
            Convention::Mulan => "mulan",
        }
    }

    /// The names of [`ALL`](Self::ALL), in its order: what [`parse`](Self::parse) reads.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::Convention;
    /// assert_eq!(Convention::NAMES, Convention::ALL.map(Convention::name));
    /// ```
    pub const NAMES: [&'static str; 5] =
        ["rankmetrics", "sklearn", "torchmetrics", "mldr", "mulan"];

    /// The toolkit release this convention's presets reproduce, as the golden records of
    /// tests/data/conformance were made with; `None` for rankmetrics' own metrics.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::Convention;
    /// assert_eq!(Convention::Sklearn.reproduces(), Some("scikit-learn 1.9.1"));
    /// assert_eq!(Convention::Rankmetrics.reproduces(), None);
    /// ```
    pub fn reproduces(self) -> Option<&'static str> {
        match self {
            Convention::Sklearn => Some("scikit-learn 1.9.1"),
            Convention::Torchmetrics => Some("torchmetrics 1.9.0"),
            Convention::Mldr => Some("mldr 0.4.2 with pROC 1.18.0"),
            Convention::Mulan => Some(
                "MULAN 43f6389 compiled against Weka 3.6.14 (Weka 3.9.7 for MacroAUCPR and \
                 weka=3.9)",
            ),
            Convention::Rankmetrics => None,
        }
    }

    /// The convention called `name`.
    ///
    /// # Example
    /// ```
    /// assert!(rankmetrics::registry::Convention::parse("weka").is_none());
    /// ```
    pub fn parse(name: &str) -> Option<Convention> {
        Convention::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether the toolkit's own functions take sample weights (only scikit-learn's do; the
    /// others' presets apply weights as an extension).
    ///
    /// # Example
    /// ```
    /// assert!(rankmetrics::registry::Convention::Sklearn.takes_weights());
    /// ```
    pub fn takes_weights(self) -> bool {
        matches!(self, Convention::Sklearn | Convention::Rankmetrics)
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads a convention's [`name`](Convention::name); any other text is an [`UnknownName`] that
/// lists the names.
///
/// # Example
/// ```
/// use rankmetrics::registry::Convention;
/// assert_eq!("mldr".parse::<Convention>(), Ok(Convention::Mldr));
/// assert_eq!("weka".parse::<Convention>().unwrap_err().to_string(),
///     "unknown convention \"weka\"; expected rankmetrics, sklearn, torchmetrics, mldr or mulan");
/// ```
impl core::str::FromStr for Convention {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Convention::parse(s).ok_or_else(|| UnknownName::new("convention", s, &Convention::NAMES))
    }
}
