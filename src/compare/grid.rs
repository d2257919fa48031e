//! The grid: every concept's cells, their presets looked up from the mapping, evaluated at
//! once.

use super::Concept;
use super::{lookup, Cell, Column, Options, Row, CONCEPTS, TOOLKITS};
use crate::compat::registry::{evaluate_all, LookupError, Preset};
use crate::error::Error;
use crate::matrix::{LabelMatrix, ScoreMatrix};
use crate::score::Score;

/// The presets of every cell, in row-major order; `None` where a toolkit lacks the concept.
///
/// # Errors
/// The registry's error if a preset of the mapping is unknown to it (ruled out by the tests).
fn cell_presets(
    columns: &[Column], options: Options,
) -> Result<Vec<Vec<Option<Preset>>>, LookupError> {
    let dtype: Vec<(&str, String)> = options
        .torchmetrics_float32
        .map(|f32| ("dtype", if f32 { "float32" } else { "float64" }.to_string()))
        .into_iter()
        .collect();
    CONCEPTS
        .iter()
        .map(|concept| {
            columns
                .iter()
                .map(|&column| match column {
                    Column::Policy(t) | Column::Analysis(t) => {
                        let (convention, named) = concept.reference;
                        lookup(convention, named, &[], Some(t)).map(Some)
                    }
                    Column::Toolkit(c) => {
                        let i = TOOLKITS.iter().position(|&t| t == c).unwrap_or(0);
                        concept.toolkits[i]
                            .map(|named| {
                                let takes = Preset::param_keys(c, named.0).contains(&"dtype");
                                lookup(c, named, if takes { &dtype } else { &[] }, None)
                            })
                            .transpose()
                    }
                })
                .collect()
        })
        .collect()
}

/// The grid's layout: for every concept, in order, each cell's column and the preset
/// [`compare`] evaluates there (its concept → preset table). For evaluating the cells elsewhere,
/// on many workers, and rebuilding each row's summary with [`Summary::of`](super::Summary::of).
///
/// # Errors
/// The registry's error if a preset of the mapping is unknown to it (ruled out by the tests).
///
/// # Example
/// ```
/// use rankmetrics::compare::{compare, layout, Options};
/// let rows = layout(Options::default()).unwrap();
/// let grid = compare(&[[1, 0], [0, 1]], &[[0.5, 0.5], [0.2, 0.9]], None, Options::default());
/// assert_eq!(rows.len(), grid.len());
/// let (concept, cells) = &rows[1];
/// assert_eq!(concept.name, grid[1].concept.name);
/// assert_eq!(cells[0].1, grid[1].cells.iter().flatten().next().unwrap().preset);
/// ```
#[allow(clippy::type_complexity)]
pub fn layout(
    options: Options,
) -> Result<Vec<(&'static Concept, Vec<(Column, Preset)>)>, LookupError> {
    let columns = Column::all();
    Ok(CONCEPTS
        .iter()
        .zip(cell_presets(&columns, options)?)
        .map(|(concept, presets)| {
            let cells = columns.iter().zip(presets);
            let cells = cells.filter_map(|(&column, preset)| Some((column, preset?)));
            (concept, cells.collect())
        })
        .collect())
}

/// The number of cells `compare` computes.
pub fn cell_count() -> usize {
    let columns = Column::all();
    cell_presets(&columns, Options::default())
        .map(|rows| rows.iter().flatten().flatten().count())
        .unwrap_or(0)
}

/// Computes every cell with one [`evaluate_all`] call. Scores of type `f32` run torchmetrics'
/// column on float32 predictions, as torchmetrics would.
///
/// A cell whose preset cannot be looked up (a bug of the mapping, ruled out by the tests) holds
/// the registry's error.
///
/// # Example
/// ```
/// use rankmetrics::compare::{compare, Column};
/// use rankmetrics::registry::Convention;
/// use rankmetrics::compare::Options;
/// let rows = compare(&[[1, 0], [0, 1]], &[[0.5, 0.5], [0.2, 0.9]], None, Options::default());
/// let coverage = &rows[1]; // coverage (ranks from 1)
/// assert_eq!(coverage.value(Column::Toolkit(Convention::Sklearn)), Some(1.5));
/// ```
pub fn compare<T: Score, Y: LabelMatrix + ?Sized, S: ScoreMatrix<T> + ?Sized>(
    y_true: &Y, y_score: &S, weights: Option<&[f64]>, options: Options,
) -> Vec<Row> {
    grid(options, weights.is_some(), |presets| {
        evaluate_all(presets, y_true, y_score, weights)
    })
}

/// [`compare`] on the threads of the current rayon pool (feature `rayon`); every value is
/// bitwise [`compare`]'s.
///
/// # Example
/// ```
/// use rankmetrics::compare::{compare, compare_parallel, Options};
/// let (y, s, o) = ([[1, 0], [0, 1]], [[0.5, 0.5], [0.2, 0.9]], Options::default());
/// let (a, b) = (compare(&y, &s, None, o), compare_parallel(&y, &s, None, o));
/// assert!(a.iter().zip(&b).all(|(a, b)| a.cells.len() == b.cells.len()));
/// ```
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub fn compare_parallel<T, Y, S>(
    y_true: &Y, y_score: &S, weights: Option<&[f64]>, options: Options,
) -> Vec<Row>
where
    T: Score,
    Y: LabelMatrix + Sync + ?Sized,
    S: ScoreMatrix<T> + Sync + ?Sized,
{
    grid(options, weights.is_some(), |presets| {
        crate::compat::registry::evaluate_all_parallel(presets, y_true, y_score, weights)
    })
}

/// The rows, each cell's preset evaluated by `evaluate` (all at once, in row-major order).
fn grid(
    options: Options, weighted: bool, evaluate: impl FnOnce(&[Preset]) -> Vec<Result<f64, Error>>,
) -> Vec<Row> {
    let columns = Column::all();
    let grid = match cell_presets(&columns, options) {
        Ok(grid) => grid,
        Err(e) => {
            // Unreachable while the tests pass: say so in every row rather than panic.
            return CONCEPTS
                .iter()
                .map(|concept| Row {
                    concept,
                    cells: Vec::new(),
                    tie_analysis: concept.tie_analysis(weighted),
                    mapping_error: Some(e.clone()),
                })
                .collect();
        }
    };
    let flat: Vec<Preset> = grid.iter().flatten().flatten().cloned().collect();
    let mut results = evaluate(&flat).into_iter();
    CONCEPTS
        .iter()
        .zip(grid)
        .map(|(concept, presets)| Row {
            concept,
            tie_analysis: concept.tie_analysis(weighted),
            cells: presets
                .into_iter()
                .zip(&columns)
                .map(|(preset, &column)| {
                    preset.map(|preset| Cell {
                        column,
                        preset,
                        result: results.next().unwrap_or(Err(Error::NotRowWise)),
                    })
                })
                .collect(),
            mapping_error: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_toolkit_metric_is_in_the_mapping_once() {
        for (i, toolkit) in TOOLKITS.iter().enumerate() {
            for metric in toolkit.metric_names() {
                let rows = CONCEPTS
                    .iter()
                    .filter(|c| c.toolkits[i].is_some_and(|(m, _)| m == *metric))
                    .count();
                // roc_auc_score appears once per average; torchmetrics' AUROC and AP are
                // reached by `eval` only (their values differ from scikit-learn's where a
                // label has one class, which the grid's rows would have to say), and so are
                // its binary retrieval metrics (no other toolkit has them).
                let expected = match *metric {
                    "roc_auc_score" => 3,
                    "multilabel_auroc"
                    | "multilabel_average_precision"
                    | "retrieval_precision"
                    | "retrieval_recall"
                    | "retrieval_average_precision"
                    | "retrieval_reciprocal_rank" => 0,
                    _ => 1,
                };
                assert_eq!(rows, expected, "{toolkit} {metric}");
            }
        }
        assert!(cell_presets(&Column::all(), Options::default()).is_ok());
    }
}
