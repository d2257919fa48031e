//! [`UnknownName`]: the error of the library's parse functions for the names its settings
//! take (a convention, an averaging, an undefined rule, a tie policy). It sits below the
//! types it names, so that each parses itself beside its definition.

use core::fmt;

/// A name that is not one a setting takes, with the names it does take: the error of
/// `"…".parse()` for [`Convention`](crate::registry::Convention), [`Average`](crate::Average),
/// [`Undefined`](crate::Undefined) and [`TiePolicy`](crate::TiePolicy).
///
/// # Example
/// ```
/// use rankmetrics::{Average, UnknownName};
/// let err: UnknownName = "binary".parse::<Average>().unwrap_err();
/// assert_eq!((err.setting(), err.text()), ("averaging", "binary"));
/// assert_eq!(err.valid(), ["micro", "macro", "weighted", "samples"]);
/// assert_eq!(err.to_string(),
///     "unknown averaging \"binary\"; expected micro, macro, weighted or samples");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnknownName {
    setting: &'static str,
    text: String,
    valid: &'static [&'static str],
}

impl UnknownName {
    /// The error for `text`, which is none of the names `valid` that `setting` takes.
    pub(crate) fn new(setting: &'static str, text: &str, valid: &'static [&'static str]) -> Self {
        UnknownName {
            setting,
            text: text.to_owned(),
            valid,
        }
    }

    /// What the name was for: `"convention"`, `"averaging"`, `"undefined rule"` or
    /// `"tie policy"`.
    ///
    /// # Example
    /// ```
    /// let err = "dense".parse::<rankmetrics::TiePolicy>().unwrap_err();
    /// assert_eq!(err.setting(), "tie policy");
    /// ```
    pub fn setting(&self) -> &'static str {
        self.setting
    }

    /// The text that is not a name of the setting.
    ///
    /// # Example
    /// ```
    /// let err = "dense".parse::<rankmetrics::TiePolicy>().unwrap_err();
    /// assert_eq!(err.text(), "dense");
    /// ```
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The names the setting takes, as a user writes them (a pattern such as `random:SEED` or
    /// `a number` where the setting takes a family of names).
    ///
    /// # Example
    /// ```
    /// let err = "always".parse::<rankmetrics::Undefined>().unwrap_err();
    /// assert_eq!(err.valid(), ["nan", "skip", "error", "a number"]);
    /// ```
    pub fn valid(&self) -> &'static [&'static str] {
        self.valid
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}; expected ", self.setting, self.text)?;
        let last = self.valid.len().saturating_sub(1);
        for (i, name) in self.valid.iter().enumerate() {
            let separator = match i {
                0 => "",
                i if i == last => " or ",
                _ => ", ",
            };
            write!(f, "{separator}{name}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownName {}
