//! The worked example of README.md and docs/conventions.md: one tie, and the toolkits disagree.

use rankmetrics::registry::{Convention, Preset};

const Y_TRUE: [[u8; 3]; 1] = [[0, 1, 0]];
const Y_SCORE: [[f64; 3]; 1] = [[0.5, 0.5, 0.1]];

fn value(convention: &str, metric: &str) -> f64 {
    let c = Convention::parse(convention).unwrap();
    let preset = Preset::lookup(c, metric, Preset::NO_PARAMS, None).unwrap();
    preset.evaluate(&Y_TRUE, &Y_SCORE, None).unwrap()
}

#[test]
fn coverage_differs() {
    assert_eq!(value("sklearn", "coverage_error"), 2.0);
    assert_eq!(value("torchmetrics", "multilabel_coverage_error"), 2.0);
    assert_eq!(value("mldr", "coverage"), 0.0);
    assert_eq!(value("mulan", "Coverage"), 0.0);
}

#[test]
fn average_precision_differs() {
    assert_eq!(
        value("sklearn", "label_ranking_average_precision_score"),
        0.5
    );
    assert_eq!(
        value("torchmetrics", "multilabel_ranking_average_precision"),
        0.5
    );
    assert_eq!(value("mldr", "average_precision"), 1.0);
    assert_eq!(value("mulan", "AveragePrecision"), 1.0);
}

#[test]
fn ranking_loss_differs() {
    assert_eq!(value("sklearn", "label_ranking_loss"), 0.5);
    assert_eq!(value("torchmetrics", "multilabel_ranking_loss"), 0.0);
    assert_eq!(value("mldr", "ranking_loss"), 0.5);
    assert_eq!(value("mulan", "RankingLoss"), 0.0);
}

#[test]
fn one_error_differs() {
    assert_eq!(value("mldr", "one_error"), 1.0);
    assert_eq!(value("mulan", "OneError"), 0.0);
}

#[test]
fn expected_over_tie_orders() {
    let expected = |convention: &str, metric: &str| {
        let c = Convention::parse(convention).unwrap();
        let preset = Preset::lookup(
            c,
            metric,
            Preset::NO_PARAMS,
            Some(rankmetrics::TiePolicy::Expected),
        )
        .unwrap();
        preset.evaluate(&Y_TRUE, &Y_SCORE, None).unwrap()
    };
    assert_eq!(expected("mldr", "coverage"), 0.5);
    assert_eq!(expected("sklearn", "coverage_error"), 1.5);
    assert_eq!(
        expected("sklearn", "label_ranking_average_precision_score"),
        0.75
    );
    assert_eq!(expected("mulan", "RankingLoss"), 0.25);
}
