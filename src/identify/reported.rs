//! A reported value and the tolerance its printed digits imply.

use core::fmt;

/// A value as a paper reports it: the number and how far from it the true value may lie
/// (half a unit of its last printed digit, unless given).
///
/// # Example
/// ```
/// use rankmetrics::identify::Reported;
/// let r = Reported::parse("0.8542").unwrap();
/// assert_eq!((r.value, r.tolerance), (0.8542, 0.00005));
/// assert!(r.contains(0.85424) && !r.contains(0.85426));
/// let percent = Reported::parse("85.4%").unwrap();
/// assert!(percent.contains(0.8543) && !percent.contains(0.8556));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reported {
    /// The value.
    pub value: f64,
    /// How far from it a value may lie and still be reported so.
    pub tolerance: f64,
}

/// Why a reported value could not be read.
///
/// # Example
/// ```
/// use rankmetrics::identify::Reported;
/// let e = Reported::parse("0.85x").unwrap_err();
/// assert_eq!(e.to_string(), "cannot read the reported value \"0.85x\": not a decimal number such as 0.8542, 85.42% or 1.5e-3");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseReportedError {
    text: String,
    why: String,
    /// The tolerance given, not the value, is what could not be taken.
    tolerance: bool,
}

impl ParseReportedError {
    /// Whether the tolerance given (not the value) is what could not be taken: a front door
    /// names the argument that was wrong.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::Reported;
    /// assert!(Reported::parse_with("0.85", Some(-1.0)).unwrap_err().about_tolerance());
    /// assert!(!Reported::parse_with("x", Some(0.1)).unwrap_err().about_tolerance());
    /// ```
    pub fn about_tolerance(&self) -> bool {
        self.tolerance
    }
}

impl fmt::Display for ParseReportedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read the reported value {:?}: {}",
            self.text, self.why
        )
    }
}

impl std::error::Error for ParseReportedError {}

impl Reported {
    /// A value with an explicit tolerance.
    ///
    /// # Errors
    /// A value that is not finite, or a tolerance that is negative or not finite.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::Reported;
    /// assert!(Reported::new(0.85, 1e-3).unwrap().contains(0.8509));
    /// assert!(Reported::new(0.85, -1.0).is_err());
    /// ```
    pub fn new(value: f64, tolerance: f64) -> Result<Reported, ParseReportedError> {
        let error = |why: String, tolerance: bool| ParseReportedError {
            text: format!("{value}"),
            why,
            tolerance,
        };
        if !value.is_finite() {
            return Err(error("not a finite number".into(), false));
        }
        if !(tolerance >= 0.0 && tolerance.is_finite()) {
            return Err(error(
                format!("the tolerance {tolerance} is not a finite number of at least 0"),
                true,
            ));
        }
        Ok(Reported { value, tolerance })
    }

    /// The value as printed: a decimal number (`0.8542`, `.85`, `12`, `1.5e-3`), or a
    /// percentage (`85.42%`, read as 0.8542); the tolerance is half a unit of its last
    /// printed digit (`0.8542`: 0.00005; `85.42%`: 0.00005; `12`: 0.5).
    ///
    /// # Errors
    /// Text that is not such a number.
    pub fn parse(text: &str) -> Result<Reported, ParseReportedError> {
        let error = |why: &str| ParseReportedError {
            text: text.to_string(),
            why: why.to_string(),
            tolerance: false,
        };
        let trimmed = text.trim();
        let (number, scale) = match trimmed.strip_suffix('%') {
            Some(n) => (n.trim_end(), -2),
            None => (trimmed, 0),
        };
        let (mantissa, exponent) = match number.find(['e', 'E']) {
            Some(i) => (&number[..i], &number[i + 1..]),
            None => (number, "0"),
        };
        let digits = mantissa.trim_start_matches(['+', '-']);
        let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
        let well_formed = !digits.is_empty()
            && digits.chars().filter(|&c| c == '.').count() <= 1
            && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
            && digits.chars().any(|c| c.is_ascii_digit());
        let exponent: Option<i32> = exponent.parse().ok();
        let (Some(exponent), true) = (exponent, well_formed) else {
            return Err(error(
                "not a decimal number such as 0.8542, 85.42% or 1.5e-3",
            ));
        };
        let value: f64 = number
            .parse()
            .map_err(|_| error("not a decimal number such as 0.8542, 85.42% or 1.5e-3"))?;
        // In i64, so that no exponent overflows; past float64's range of exponents a
        // printed precision means nothing.
        let places = i64::try_from(decimals).unwrap_or(i64::MAX) - i64::from(exponent) - scale;
        if places.abs() > 400 {
            return Err(error(
                "its last digit's place is beyond float64's range (more than 400 decimal places \
                 either way)",
            ));
        }
        let tolerance = 0.5 * 10f64.powi(-(places as i32));
        let value = if scale == 0 { value } else { value / 100.0 };
        Reported::new(value, tolerance).map_err(|e| error(&e.why))
    }

    /// [`Reported::parse`], then, when `tolerance` is given, that tolerance instead of the
    /// printed digits' (as the front doors' `--tolerance` / `tolerance=` do).
    ///
    /// # Errors
    /// Text that is not such a number ([`ParseReportedError::about_tolerance`] false), or a
    /// tolerance that is negative or not finite (true).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::Reported;
    /// let r = Reported::parse_with("0.85", Some(0.01)).unwrap();
    /// assert_eq!((r.value, r.tolerance), (0.85, 0.01));
    /// assert_eq!(Reported::parse_with("0.85", None).unwrap().tolerance, 0.005);
    /// ```
    pub fn parse_with(text: &str, tolerance: Option<f64>) -> Result<Reported, ParseReportedError> {
        let reported = Reported::parse(text)?;
        match tolerance {
            Some(t) => Reported::new(reported.value, t),
            None => Ok(reported),
        }
    }

    /// Whether `v` is reported as this value: within the tolerance, with room for the
    /// rounding of the decimal value itself.
    pub fn contains(&self, v: f64) -> bool {
        let slack = 1e-12 * self.value.abs().max(1.0);
        (v - self.value).abs() <= self.tolerance + slack
    }

    /// The number of decimals the value was reported with (from its tolerance), to print the
    /// matches' values one digit finer.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::identify::Reported;
    /// assert_eq!(Reported::parse("0.8542").unwrap().decimals(), 4);
    /// assert_eq!(Reported::parse("12").unwrap().decimals(), 0);
    /// ```
    pub fn decimals(&self) -> usize {
        if self.tolerance <= 0.0 {
            return 17;
        }
        let places = -(2.0 * self.tolerance).log10();
        places.round().clamp(0.0, 17.0) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_follow_the_printed_digits() {
        let tol = |t: &str| Reported::parse(t).unwrap().tolerance;
        assert_eq!(tol("0.8542"), 0.00005);
        assert_eq!(tol(".85"), 0.005);
        assert_eq!(tol("12"), 0.5);
        assert_eq!(tol("12.50"), 0.005);
        assert!((tol("1.5e-3") - 0.00005).abs() < 1e-18);
        assert!((tol("85.42%") - 0.00005).abs() < 1e-18);
        assert_eq!(Reported::parse(" -0.25 ").unwrap().value, -0.25);
        for bad in [
            "", "%", ".", "1..2", "0x10", "nan", "inf", "1e", "1,5", "--1", "1e999",
        ] {
            assert!(Reported::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn extreme_exponents_are_refused_not_overflowed() {
        for text in [
            "1e-2147483648",
            "1e2147483647",
            "0.5e-2147483648",
            "1e-401",
            "1e401%",
        ] {
            let e = Reported::parse(text).unwrap_err();
            assert!(
                e.to_string().contains("cannot read the reported value"),
                "{e}"
            );
        }
        let long = format!("0.{}5", "0".repeat(500));
        assert!(Reported::parse(&long).is_err());
        // The largest exponents that float64 still reaches are read.
        let tiny = Reported::parse("1e-300").unwrap().tolerance;
        assert!((tiny / 0.5e-300 - 1.0).abs() < 1e-12, "{tiny}");
        assert_eq!(Reported::parse("1e300").unwrap().value, 1e300);
    }
}
