//! The vocabulary every front door shares: an error's stable [`kind`](Error::kind) and its
//! [`location`](Error::location) in the input.

use super::{Error, Input, LookupError};

/// Where an error is in the input, as far as it is known: which input, and the 0-based row and
/// column. A field is `None` where the error has no such place (a whole input, a parameter).
///
/// # Example
/// ```
/// use rankmetrics::{Error, Input, Location};
/// let err = Error::InvalidWeight { row: 3, value: -1.0 };
/// let at = err.location();
/// assert_eq!((at.input, at.row, at.column), (Some(Input::SampleWeights), Some(3), None));
/// assert_eq!(Error::NoSamples.location(), Location::default());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Location {
    /// The input the error is in.
    pub input: Option<Input>,
    /// The row (sample), 0-based.
    pub row: Option<usize>,
    /// The column (label), 0-based.
    pub column: Option<usize>,
}

impl Location {
    fn of(input: Option<Input>, row: Option<usize>, column: Option<usize>) -> Self {
        Location { input, row, column }
    }
}

impl Error {
    /// The error's kind: a short snake-case name, one per variant, that stays the same across
    /// releases whatever the variant or its message become. Front doors name their errors
    /// after it (R's condition class is `rankmetrics_<kind>`). A failed name lookup
    /// ([`Error::Lookup`]) is a `"parameter"` error; [`LookupError::kind`] says which.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, Error, RankingMetric, TiePolicy};
    /// let err = Coverage::new(TiePolicy::Max)
    ///     .evaluate(&[[1, 0]], &[[0.5, f64::NAN]], None)
    ///     .unwrap_err();
    /// assert_eq!(err.kind(), "non_finite_score");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Error::ShapeMismatch { .. } => "shape_mismatch",
            Error::RaggedRow { .. } => "ragged_row",
            Error::DataLength { .. } => "data_length",
            Error::NoSamples => "no_samples",
            Error::NoLabels => "no_labels",
            Error::NonFiniteScore { .. } => "non_finite_score",
            Error::InvalidLabel { .. } => "invalid_label",
            Error::TooFewLabels { .. } => "too_few_labels",
            Error::WeightLength { .. } => "weight_length",
            Error::InvalidWeight { .. } => "invalid_weight",
            Error::ZeroTotalWeight => "zero_total_weight",
            Error::InvalidK { .. } => "invalid_k",
            Error::InvalidLogBase { .. } => "invalid_log_base",
            Error::DegenerateRow { .. } => "degenerate_row",
            Error::SingleClass => "single_class",
            Error::TooFewRecallLevels { .. } => "too_few_recall_levels",
            Error::NotRowWise => "not_row_wise",
            Error::NotLabelwise => "not_labelwise",
            Error::UnsupportedPolicy { .. } => "unsupported_policy",
            Error::LabelWeightLength { .. } => "label_weight_length",
            Error::InvalidLabelWeight { .. } => "invalid_label_weight",
            Error::InvalidPropensityParameter { .. } => "invalid_propensity_parameter",
            Error::InvalidIndptr { .. } => "invalid_indptr",
            Error::SparseColumnOutOfRange { .. } => "sparse_column_out_of_range",
            Error::UnsortedSparseRow { .. } => "unsorted_sparse_row",
            Error::SparseGainsLength { .. } => "sparse_gains_length",
            Error::Incompatible(_) => "incompatible",
            Error::TooManyRecallLevels { .. } => "too_many_recall_levels",
            Error::TooManyItems { .. } => "too_many_items",
            Error::NotExactInRuns(_) => "not_exact_in_runs",
            Error::RowNumberOverflow { .. } => "row_number_overflow",
            Error::InvalidState { .. } => "invalid_state",
            Error::Lookup(_) => "parameter",
            Error::MatrixContract { .. } => "matrix_contract",
            Error::OutOfMemory { .. } => "memory",
            Error::MatrixShapeChanged { .. } => "matrix_shape_changed",
        }
    }

    /// Where the error is in the input: the input, row and column (0-based) where the error
    /// names them, else `None`. A row of [`Error::RowNumberOverflow`] is the number the batch's
    /// first row would get; a column of a label weight is its label.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Coverage, Input, RankingMetric, TiePolicy};
    /// let err = Coverage::new(TiePolicy::Max)
    ///     .evaluate(&[[1, 0], [0, 1]], &[[0.5, 0.1], [0.2, f64::INFINITY]], None)
    ///     .unwrap_err();
    /// let at = err.location();
    /// assert_eq!((at.input, at.row, at.column), (Some(Input::Scores), Some(1), Some(1)));
    /// ```
    pub fn location(&self) -> Location {
        let (labels, scores, weights) = (
            Some(Input::Labels),
            Some(Input::Scores),
            Some(Input::SampleWeights),
        );
        match *self {
            Error::NonFiniteScore { row, column, .. } => {
                Location::of(scores, Some(row), Some(column))
            }
            Error::InvalidLabel { row, column, .. } => {
                Location::of(labels, Some(row), Some(column))
            }
            Error::WeightLength { .. } => Location::of(weights, None, None),
            Error::InvalidWeight { row, .. } => Location::of(weights, Some(row), None),
            Error::RaggedRow { row, .. }
            | Error::DegenerateRow { row, .. }
            | Error::RowNumberOverflow { first_row: row, .. } => {
                Location::of(None, Some(row), None)
            }
            Error::InvalidLabelWeight { column, .. } => Location::of(None, None, Some(column)),
            Error::SparseColumnOutOfRange { row, column, .. }
            | Error::UnsortedSparseRow { row, column } => {
                Location::of(None, Some(row), Some(column))
            }
            Error::MatrixContract { matrix, row, .. } => {
                Location::of(Some(matrix), Some(row), None)
            }
            Error::MatrixShapeChanged { matrix, .. } => Location::of(Some(matrix), None, None),
            Error::ShapeMismatch { .. }
            | Error::DataLength { .. }
            | Error::NoSamples
            | Error::NoLabels
            | Error::TooFewLabels { .. }
            | Error::ZeroTotalWeight
            | Error::InvalidK { .. }
            | Error::InvalidLogBase { .. }
            | Error::SingleClass
            | Error::TooFewRecallLevels { .. }
            | Error::NotRowWise
            | Error::NotLabelwise
            | Error::UnsupportedPolicy { .. }
            | Error::LabelWeightLength { .. }
            | Error::InvalidPropensityParameter { .. }
            | Error::InvalidIndptr { .. }
            | Error::SparseGainsLength { .. }
            | Error::Incompatible(_)
            | Error::TooManyRecallLevels { .. }
            | Error::TooManyItems { .. }
            | Error::NotExactInRuns(_)
            | Error::InvalidState { .. }
            | Error::Lookup(_)
            | Error::OutOfMemory { .. } => Location::default(),
        }
    }
}

impl LookupError {
    /// Which lookup failed: `"unknown_metric"`, `"invalid_param"` or `"unknown_param"`, stable
    /// across releases as [`Error::kind`] is.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::registry::{Convention, Preset};
    /// let err = Preset::lookup(Convention::Sklearn, "ndcg", Preset::NO_PARAMS, None).unwrap_err();
    /// assert_eq!(err.kind(), "unknown_metric");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            LookupError::UnknownMetric { .. } => "unknown_metric",
            LookupError::InvalidParam { .. } => "invalid_param",
            LookupError::UnknownParam { .. } => "unknown_param",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Degeneracy, Incompatibility, LabelDomain, RunsLimit, StateFault};
    use crate::ties::TiePolicy;
    use std::collections::BTreeSet;

    /// One error of each variant, in the order of the variants.
    fn one_of_each() -> Vec<Error> {
        let lookup = LookupError::InvalidParam {
            key: "k".into(),
            value: "0".into(),
            expected: "an integer >= 1",
        };
        vec![
            Error::ShapeMismatch {
                expected: (1, 2),
                found: (1, 3),
            },
            Error::RaggedRow {
                row: 1,
                expected: 2,
                found: 3,
            },
            Error::DataLength {
                rows: 2,
                columns: 2,
                expected: 4,
                found: 3,
            },
            Error::NoSamples,
            Error::NoLabels,
            Error::NonFiniteScore {
                row: 0,
                column: 1,
                value: f64::NAN,
            },
            Error::InvalidLabel {
                row: 2,
                column: 0,
                value: 2.0,
                expected: LabelDomain::Binary,
            },
            Error::TooFewLabels {
                required: 2,
                found: 1,
            },
            Error::WeightLength {
                expected: 2,
                found: 1,
            },
            Error::InvalidWeight {
                row: 1,
                value: -1.0,
            },
            Error::ZeroTotalWeight,
            Error::InvalidK { value: 0 },
            Error::InvalidLogBase { value: 1.0 },
            Error::DegenerateRow {
                row: 3,
                kind: Degeneracy::NoRelevant,
            },
            Error::SingleClass,
            Error::TooFewRecallLevels { found: 1 },
            Error::NotRowWise,
            Error::UnsupportedPolicy {
                policy: TiePolicy::Expected,
                reason: "no closed form",
            },
            Error::LabelWeightLength {
                expected: 2,
                found: 1,
            },
            Error::InvalidLabelWeight {
                column: 1,
                value: -1.0,
            },
            Error::InvalidPropensityParameter {
                parameter: 'N',
                value: 0.0,
            },
            Error::InvalidIndptr { position: 0 },
            Error::SparseColumnOutOfRange {
                row: 1,
                column: 5,
                n_labels: 3,
            },
            Error::UnsortedSparseRow { row: 1, column: 0 },
            Error::SparseGainsLength {
                expected: 2,
                found: 1,
            },
            Error::Incompatible(Incompatibility::Metric),
            Error::TooManyRecallLevels { found: 10, max: 2 },
            Error::TooManyItems { found: 10, max: 2 },
            Error::NotExactInRuns(RunsLimit::SampleWeights),
            Error::RowNumberOverflow {
                first_row: 7,
                rows: 2,
            },
            Error::InvalidState {
                field: "rows.seen",
                index: Some(1),
                fault: StateFault::Order,
            },
            Error::Lookup(lookup),
            Error::MatrixContract {
                matrix: Input::Scores,
                row: 4,
                expected: 2,
                found: 1,
            },
            Error::OutOfMemory { bytes: 1 << 40 },
            Error::MatrixShapeChanged {
                matrix: Input::Labels,
                expected: (1, 2),
                found: (2, 2),
            },
            Error::NotLabelwise,
        ]
    }

    /// The variant's position in the enum: a new variant fails to compile here until it is
    /// given a place (and an entry in `one_of_each`).
    fn position(error: &Error) -> usize {
        match error {
            Error::ShapeMismatch { .. } => 0,
            Error::RaggedRow { .. } => 1,
            Error::DataLength { .. } => 2,
            Error::NoSamples => 3,
            Error::NoLabels => 4,
            Error::NonFiniteScore { .. } => 5,
            Error::InvalidLabel { .. } => 6,
            Error::TooFewLabels { .. } => 7,
            Error::WeightLength { .. } => 8,
            Error::InvalidWeight { .. } => 9,
            Error::ZeroTotalWeight => 10,
            Error::InvalidK { .. } => 11,
            Error::InvalidLogBase { .. } => 12,
            Error::DegenerateRow { .. } => 13,
            Error::SingleClass => 14,
            Error::TooFewRecallLevels { .. } => 15,
            Error::NotRowWise => 16,
            Error::UnsupportedPolicy { .. } => 17,
            Error::LabelWeightLength { .. } => 18,
            Error::InvalidLabelWeight { .. } => 19,
            Error::InvalidPropensityParameter { .. } => 20,
            Error::InvalidIndptr { .. } => 21,
            Error::SparseColumnOutOfRange { .. } => 22,
            Error::UnsortedSparseRow { .. } => 23,
            Error::SparseGainsLength { .. } => 24,
            Error::Incompatible(_) => 25,
            Error::TooManyRecallLevels { .. } => 26,
            Error::TooManyItems { .. } => 27,
            Error::NotExactInRuns(_) => 28,
            Error::RowNumberOverflow { .. } => 29,
            Error::InvalidState { .. } => 30,
            Error::Lookup(_) => 31,
            Error::MatrixContract { .. } => 32,
            Error::OutOfMemory { .. } => 33,
            Error::MatrixShapeChanged { .. } => 34,
            Error::NotLabelwise => 35,
        }
    }

    #[test]
    fn every_variant_has_a_distinct_snake_case_kind() {
        let errors = one_of_each();
        let positions: Vec<usize> = errors.iter().map(position).collect();
        assert_eq!(positions, (0..errors.len()).collect::<Vec<_>>());
        let kinds: BTreeSet<&str> = errors.iter().map(Error::kind).collect();
        assert_eq!(kinds.len(), errors.len(), "{kinds:?}");
        for kind in kinds {
            assert!(
                !kind.is_empty() && kind.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{kind}"
            );
        }
    }

    #[test]
    fn locations_name_what_the_errors_name() {
        let at = |input, row, column| Location { input, row, column };
        let (labels, scores, weights) = (
            Some(Input::Labels),
            Some(Input::Scores),
            Some(Input::SampleWeights),
        );
        let errors = one_of_each();
        let expected = [
            (5, at(scores, Some(0), Some(1))),
            (6, at(labels, Some(2), Some(0))),
            (8, at(weights, None, None)),
            (9, at(weights, Some(1), None)),
            (13, at(None, Some(3), None)),
            (19, at(None, None, Some(1))),
            (22, at(None, Some(1), Some(5))),
            (29, at(None, Some(7), None)),
            (32, at(scores, Some(4), None)),
            (34, at(labels, None, None)),
        ];
        for (i, location) in expected {
            assert_eq!(errors[i].location(), location, "{}", errors[i].kind());
        }
        for i in [0, 3, 7, 10, 17, 25, 31, 33] {
            assert_eq!(
                errors[i].location(),
                Location::default(),
                "{}",
                errors[i].kind()
            );
        }
    }

    #[test]
    fn lookup_kinds_are_distinct() {
        let convention = crate::convention::Convention::Sklearn;
        let kinds: BTreeSet<&str> = [
            LookupError::UnknownMetric {
                convention,
                metric: "x".into(),
            },
            LookupError::InvalidParam {
                key: "k".into(),
                value: "x".into(),
                expected: "a number",
            },
            LookupError::UnknownParam {
                convention,
                metric: "ndcg_score",
                key: "kk".into(),
                takes: &["k"],
            },
        ]
        .iter()
        .map(LookupError::kind)
        .collect();
        assert_eq!(kinds.len(), 3);
    }
}
