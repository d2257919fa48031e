//! Every `Error` variant, reached through the public API, with the fields that locate it.

use rankmetrics::*;

const COVERAGE: Coverage = Coverage::new(TiePolicy::Max);

#[test]
fn shape_mismatch_reports_both_shapes() {
    let y = [[1, 0, 0], [0, 1, 0]];
    let narrow = [[0.5, 0.1], [0.2, 0.3]];
    assert_eq!(
        COVERAGE.evaluate(&y, &narrow, None),
        Err(Error::ShapeMismatch {
            expected: (2, 3),
            found: (2, 2)
        })
    );
    let short = [[0.5, 0.1, 0.2]];
    assert_eq!(
        COVERAGE.evaluate(&y, &short, None),
        Err(Error::ShapeMismatch {
            expected: (2, 3),
            found: (1, 3)
        })
    );
    assert_eq!(
        COVERAGE.per_sample(&y, &short),
        Err(Error::ShapeMismatch {
            expected: (2, 3),
            found: (1, 3)
        })
    );
}

#[test]
fn ragged_row_reports_the_first_short_or_long_row() {
    let y = vec![vec![1, 0], vec![0, 1], vec![1, 1]];
    let s = vec![vec![0.5, 0.1], vec![0.2, 0.3, 0.4], vec![0.1]];
    assert_eq!(
        COVERAGE.evaluate(&y, &s, None),
        Err(Error::RaggedRow {
            row: 1,
            expected: 2,
            found: 3
        })
    );
    let y_ragged = vec![vec![1, 0], vec![0]];
    let s_ok = vec![vec![0.5, 0.1], vec![0.2, 0.3]];
    assert_eq!(
        COVERAGE.evaluate(&y_ragged, &s_ok, None),
        Err(Error::RaggedRow {
            row: 1,
            expected: 2,
            found: 1
        })
    );
}

#[test]
fn data_length_from_row_major() {
    let data = [0.1, 0.2, 0.3, 0.4, 0.5];
    assert!(matches!(
        RowMajor::new(&data, 2, 3),
        Err(Error::DataLength {
            rows: 2,
            columns: 3,
            expected: 6,
            found: 5
        })
    ));
    // rows × columns overflows: the expected length saturates instead of panicking.
    assert!(matches!(
        RowMajor::new(&data, usize::MAX, 2),
        Err(Error::DataLength {
            expected: usize::MAX,
            found: 5,
            ..
        })
    ));
}

#[test]
fn no_samples() {
    let (y, s): (Vec<Vec<u8>>, Vec<Vec<f64>>) = (vec![], vec![]);
    assert_eq!(COVERAGE.evaluate(&y, &s, None), Err(Error::NoSamples));
    let (y, s) = (
        RowMajor::new(&[0u8; 0], 0, 3).unwrap(),
        RowMajor::new(&[0.0f64; 0], 0, 3).unwrap(),
    );
    assert_eq!(COVERAGE.evaluate(&y, &s, None), Err(Error::NoSamples));
}

#[test]
fn no_labels() {
    let (y, s): (Vec<Vec<u8>>, Vec<Vec<f64>>) = (vec![vec![], vec![]], vec![vec![], vec![]]);
    assert_eq!(COVERAGE.evaluate(&y, &s, None), Err(Error::NoLabels));
    assert_eq!(
        AveragePrecision::new(TiePolicy::Max).per_sample(&y, &s),
        Err(Error::NoLabels)
    );
}

#[test]
fn non_finite_scores_report_row_column_and_value() {
    let y = [[1, 0, 0], [0, 1, 0]];
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let s = [[0.5, 0.1, 0.2], [0.2, 0.3, bad]];
        match COVERAGE.evaluate(&y, &s, None) {
            Err(Error::NonFiniteScore { row, column, value }) => {
                assert_eq!((row, column), (1, 2));
                assert_eq!(value.to_bits(), bad.to_bits());
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    // f32 scores report the value as f64.
    let s32 = [[0.5f32, f32::INFINITY, 0.2], [0.2, 0.3, 0.1]];
    assert_eq!(
        COVERAGE.evaluate(&y, &s32, None),
        Err(Error::NonFiniteScore {
            row: 0,
            column: 1,
            value: f64::INFINITY
        })
    );
    // torchmetrics checks before its logit normalisation.
    let preds = [[0.5, 0.1, 0.2], [0.2, f64::NEG_INFINITY, 0.1]];
    assert_eq!(
        torchmetrics::multilabel_ranking_loss(&preds, &y),
        Err(Error::NonFiniteScore {
            row: 1,
            column: 1,
            value: f64::NEG_INFINITY
        })
    );
}

#[test]
fn nan_label_is_invalid_for_every_metric() {
    let y = [[1.0, 0.0], [0.0, f64::NAN]];
    let s = [[0.5, 0.1], [0.2, 0.3]];
    match RankingLoss::new(TiePolicy::Average).evaluate(&y, &s, None) {
        Err(Error::InvalidLabel {
            row: 1,
            column: 1,
            value,
            expected: LabelDomain::Binary,
        }) => assert!(value.is_nan()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn binary_presets_reject_label_two() {
    let y = [[1, 0, 0], [0, 2, 0]];
    let s = [[0.5, 0.1, 0.2], [0.2, 0.3, 0.1]];
    let expected = Err(Error::InvalidLabel {
        row: 1,
        column: 1,
        value: 2.0,
        expected: LabelDomain::Binary,
    });
    assert_eq!(torchmetrics::multilabel_coverage_error(&s, &y), expected);
    assert_eq!(
        torchmetrics::multilabel_ranking_average_precision(&s, &y),
        expected
    );
    assert_eq!(torchmetrics::multilabel_ranking_loss(&s, &y), expected);
    assert_eq!(mldr::average_precision(&y, &s, TiePolicy::Last), expected);
    assert_eq!(mldr::coverage(&y, &s, TiePolicy::Min), expected);
    assert_eq!(mldr::one_error(&y, &s), expected);
    assert_eq!(mldr::ranking_loss(&y, &s), expected);
    assert_eq!(mulan::AveragePrecision.evaluate(&y, &s, None), expected);
    assert_eq!(mulan::Coverage.evaluate(&y, &s, None), expected);
    assert_eq!(mulan::OneError.evaluate(&y, &s, None), expected);
    assert_eq!(mulan::IsError.evaluate(&y, &s, None), expected);
    assert_eq!(mulan::ErrorSetSize.evaluate(&y, &s, None), expected);
    assert_eq!(mulan::RankingLoss.evaluate(&y, &s, None), expected);
    // The core metrics take 0/1 too, unless told that any non-zero label is relevant.
    assert_eq!(COVERAGE.evaluate(&y, &s, None), expected);
    let nonzero = COVERAGE.with_label_domain(LabelDomain::NonZero);
    assert!(nonzero.evaluate(&y, &s, None).is_ok());
}

#[test]
fn sklearn_rejects_a_third_distinct_value_at_its_first_cell() {
    // 0 and 1 are the two values; the first 2 in row order is (1, 2), not (2, 0).
    let y = [[0, 1, 0], [1, 0, 2], [2, 0, 1]];
    let s = [[0.5, 0.1, 0.2], [0.2, 0.3, 0.1], [0.4, 0.3, 0.1]];
    let expected = Err(Error::InvalidLabel {
        row: 1,
        column: 2,
        value: 2.0,
        expected: LabelDomain::Indicator,
    });
    assert_eq!(sklearn::coverage_error(&y, &s, None), expected);
    assert_eq!(
        sklearn::label_ranking_average_precision_score(&y, &s, None),
        expected
    );
    assert_eq!(sklearn::label_ranking_loss(&y, &s, None), expected);
    // Two distinct integral values, whatever they are, form an indicator matrix.
    let y = [[0, 2, 0], [2, 0, 2]];
    assert!(sklearn::coverage_error(&y, &s[..2], None).is_ok());
    let y = [[-1, 3], [3, -1]];
    assert!(sklearn::label_ranking_loss(&y, &[[0.1, 0.2], [0.3, 0.4]], None).is_ok());
}

#[test]
fn sklearn_rejects_a_fractional_label() {
    let y = [[1.0, 0.0], [0.0, 0.5]];
    let s = [[0.5, 0.1], [0.2, 0.3]];
    assert_eq!(
        sklearn::label_ranking_loss(&y, &s, None),
        Err(Error::InvalidLabel {
            row: 1,
            column: 1,
            value: 0.5,
            expected: LabelDomain::Indicator
        })
    );
    // A fractional label is rejected even when it is one of only two distinct values.
    let y = [[0.5, 0.0], [0.0, 0.5]];
    assert_eq!(
        sklearn::coverage_error(&y, &s, None),
        Err(Error::InvalidLabel {
            row: 0,
            column: 0,
            value: 0.5,
            expected: LabelDomain::Indicator
        })
    );
}

#[test]
fn too_few_labels_for_sklearn_and_torchmetrics() {
    let (y, s) = ([[1], [0]], [[0.5], [0.2]]);
    let expected = Err(Error::TooFewLabels {
        required: 2,
        found: 1,
    });
    assert_eq!(sklearn::coverage_error(&y, &s, None), expected);
    assert_eq!(sklearn::label_ranking_loss(&y, &s, None), expected);
    assert_eq!(torchmetrics::multilabel_coverage_error(&s, &y), expected);
    assert_eq!(
        torchmetrics::multilabel_ranking_average_precision(&s, &y),
        expected
    );
    assert_eq!(torchmetrics::multilabel_ranking_loss(&s, &y), expected);
    // scikit-learn's LRAP takes a single column: every row is degenerate and scores 1.
    assert_eq!(
        sklearn::label_ranking_average_precision_score(&y, &s, None),
        Ok(1.0)
    );
    // A custom minimum.
    assert_eq!(
        COVERAGE
            .with_min_labels(4)
            .evaluate(&[[1, 0, 0]], &[[0.1, 0.2, 0.3]], None),
        Err(Error::TooFewLabels {
            required: 4,
            found: 3
        })
    );
}

#[test]
fn weight_length() {
    let (y, s) = ([[1, 0], [0, 1]], [[0.5, 0.1], [0.2, 0.3]]);
    assert_eq!(
        COVERAGE.evaluate(&y, &s, Some(&[1.0])),
        Err(Error::WeightLength {
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        sklearn::label_ranking_average_precision_score(&y, &s, Some(&[1.0, 1.0, 1.0])),
        Err(Error::WeightLength {
            expected: 2,
            found: 3
        })
    );
}

#[test]
fn invalid_weights_report_row_and_value() {
    let (y, s) = (
        [[1, 0], [0, 1], [1, 1]],
        [[0.5, 0.1], [0.2, 0.3], [0.1, 0.1]],
    );
    for bad in [-0.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        match RankingLoss::new(TiePolicy::Max).evaluate(&y, &s, Some(&[1.0, 2.0, bad])) {
            Err(Error::InvalidWeight { row: 2, value }) => {
                assert_eq!(value.to_bits(), bad.to_bits())
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    // -0.0 is not negative.
    assert!(COVERAGE.evaluate(&y, &s, Some(&[1.0, -0.0, 1.0])).is_ok());
    // Weights are f64 whatever the score type: f32 scores take the same f64 weights.
    let s32 = [[0.5f32, 0.1], [0.2, 0.3], [0.1, 0.1]];
    assert_eq!(
        COVERAGE.evaluate(&y, &s32, Some(&[-1.0, 1.0, 1.0])),
        Err(Error::InvalidWeight {
            row: 0,
            value: -1.0
        })
    );
}

#[test]
fn zero_total_weight_is_an_error_or_nan() {
    let (y, s, w) = ([[1, 0], [0, 1]], [[0.5, 0.1], [0.2, 0.3]], [0.0, 0.0]);
    assert_eq!(
        sklearn::coverage_error(&y, &s, Some(&w)),
        Err(Error::ZeroTotalWeight)
    );
    assert_eq!(
        sklearn::label_ranking_loss(&y, &s, Some(&w)),
        Err(Error::ZeroTotalWeight)
    );
    assert_eq!(
        AveragePrecision::new(TiePolicy::Max).evaluate(&y, &s, Some(&w)),
        Err(Error::ZeroTotalWeight)
    );
    assert!(
        sklearn::label_ranking_average_precision_score(&y, &s, Some(&w))
            .unwrap()
            .is_nan()
    );
    // Only the rows that count: the weighted row is skipped, the counted one weighs 0.
    let skip = AveragePrecision::new(TiePolicy::Max).on_no_relevant(RowRule::Skip);
    let (y, w) = ([[1, 0], [0, 0]], [0.0, 3.0]);
    assert_eq!(skip.evaluate(&y, &s, Some(&w)), Err(Error::ZeroTotalWeight));
    // Every row skipped: undefined, NaN, not an error.
    assert!(skip
        .evaluate(&[[0, 0], [0, 0]], &s, Some(&w))
        .unwrap()
        .is_nan());
}

#[test]
fn degenerate_rows_rejected_on_request() {
    let s = [[0.5, 0.1], [0.2, 0.3], [0.4, 0.4]];
    let y = [[1, 0], [0, 0], [1, 1]];
    let reject_none = Coverage::new(TiePolicy::Max).on_no_relevant(RowRule::Reject);
    assert_eq!(
        reject_none.evaluate(&y, &s, None),
        Err(Error::DegenerateRow {
            row: 1,
            kind: Degeneracy::NoRelevant
        })
    );
    let reject_all = RankingLoss::new(TiePolicy::Max).on_all_relevant(RowRule::Reject);
    assert_eq!(
        reject_all.per_sample(&y, &s),
        Err(Error::DegenerateRow {
            row: 2,
            kind: Degeneracy::AllRelevant
        })
    );
}

#[test]
fn the_first_bad_row_is_reported() {
    // A bad score in row 2 and a bad label in row 1: row order decides.
    let y = [[1, 0], [0, 7], [1, 0]];
    let s = [[0.5, 0.1], [0.2, 0.3], [f64::NAN, 0.1]];
    let binary = Coverage::new(TiePolicy::Max).with_label_domain(LabelDomain::Binary);
    assert_eq!(
        binary.evaluate(&y, &s, None),
        Err(Error::InvalidLabel {
            row: 1,
            column: 1,
            value: 7.0,
            expected: LabelDomain::Binary
        })
    );
}

#[test]
fn sklearn_label_check_comes_before_any_row_error() {
    // scikit-learn checks the whole label matrix first: the third label value in row 2 is
    // reported before the NaN score of row 1 and the rejected label-less row 0.
    let y = [[0, 0, 0], [1, 0, 1], [1, 0, 2]];
    let s = [[0.5, 0.1, 0.2], [0.2, f64::NAN, 0.1], [0.4, 0.3, 0.1]];
    let expected = Err(Error::InvalidLabel {
        row: 2,
        column: 2,
        value: 2.0,
        expected: LabelDomain::Indicator,
    });
    assert_eq!(sklearn::coverage_error(&y, &s, None), expected);
    assert_eq!(sklearn::label_ranking_loss(&y, &s, None), expected);
    let s = [[0.5, 0.1, 0.2], [0.2, 0.3, 0.1], [0.4, 0.3, 0.1]];
    let reject = sklearn::COVERAGE_ERROR.on_no_relevant(RowRule::Reject);
    assert_eq!(reject.evaluate(&y, &s, None), expected);
    // Without the third value, the rows' own errors, in row order.
    let y = [[0, 0, 0], [1, 0, 1], [1, 0, 1]];
    assert!(matches!(
        reject.evaluate(&y, &s, None),
        Err(Error::DegenerateRow { row: 0, .. })
    ));
}

#[test]
fn caller_data_is_unchanged() {
    let y = vec![vec![1u8, 0, 0], vec![0, 1, 1], vec![0, 0, 0]];
    // -0.0 and out-of-[0, 1] scores: the kernel normalises -0.0 and torchmetrics applies a
    // sigmoid, both on copies.
    let s = vec![
        vec![-0.0, 0.0, 3.5],
        vec![0.25, 0.25, -2.0],
        vec![1.0, -0.0, 0.5],
    ];
    let w = vec![1.0, 0.5, 2.0];
    let (y0, s0, w0) = (y.clone(), bits(&s), w.clone());
    for ties in TiePolicy::R_METHODS {
        Coverage::new(ties).evaluate(&y, &s, Some(&w)).unwrap();
        AveragePrecision::new(ties).per_sample(&y, &s).unwrap();
        RankingLoss::new(ties)
            .with_grouping(TieGrouping::WEKA)
            .evaluate(&y, &s, Some(&w))
            .unwrap();
    }
    torchmetrics::multilabel_ranking_loss(&s, &y).unwrap();
    let flat: Vec<f64> = s.concat();
    let view = RowMajor::new(&flat, 3, 3).unwrap();
    OneError::new(TiePolicy::Random(1))
        .evaluate(&y, &view, None)
        .unwrap();
    assert_eq!(bits(&[flat]), [s0.concat()]);
    assert_eq!((y, bits(&s), w), (y0, s0, w0));
}

fn bits(m: &[Vec<f64>]) -> Vec<Vec<u64>> {
    m.iter()
        .map(|r| r.iter().map(|x| x.to_bits()).collect())
        .collect()
}

#[test]
fn display_says_where() {
    let cases = [
        (
            Error::NonFiniteScore {
                row: 4,
                column: 7,
                value: f64::NAN,
            },
            &["row 4", "column 7", "NaN"][..],
        ),
        (
            Error::InvalidLabel {
                row: 3,
                column: 2,
                value: 2.0,
                expected: LabelDomain::Binary,
            },
            &["row 3", "column 2", "0 or 1"][..],
        ),
        (
            Error::RaggedRow {
                row: 5,
                expected: 3,
                found: 2,
            },
            &["row 5"][..],
        ),
        (
            Error::InvalidWeight {
                row: 6,
                value: -1.0,
            },
            &["[6]", "-1"][..],
        ),
        (
            Error::DegenerateRow {
                row: 9,
                kind: Degeneracy::AllRelevant,
            },
            &["row 9", "every label relevant"][..],
        ),
        (
            Error::ShapeMismatch {
                expected: (2, 3),
                found: (2, 4),
            },
            &["(2, 3)", "(2, 4)"][..],
        ),
    ];
    for (err, needles) in cases {
        let text = err.to_string();
        for needle in needles {
            assert!(text.contains(needle), "{text:?} lacks {needle:?}");
        }
    }
    // The same, from an error the library produced.
    let err = COVERAGE
        .evaluate(&[[1, 0]], &[[0.1, f64::INFINITY]], None)
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("row 0") && text.contains("column 1") && text.contains("inf"));
}
