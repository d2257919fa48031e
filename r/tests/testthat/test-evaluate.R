# rm_evaluate, the per-sample values and the comparison grid on R's own matrix layouts.

set.seed(7)
n <- 30
l <- 6
y <- matrix(rbinom(n * l, 1, 0.4), n, l)
s <- matrix(round(runif(n * l), 1), n, l)

test_that("R's column-major matrices are read as rows: row order only permutes rows", {
  perm <- sample(n)
  for (metric in c("coverage", "average_precision", "ranking_loss", "ndcg", "one_error")) {
    a <- rm_evaluate(y, s, metric = metric, per_sample = TRUE)
    b <- rm_evaluate(y[perm, ], s[perm, ], metric = metric, per_sample = TRUE)
    expect_identical(b, a[perm])
    # Each row alone: the row's value.
    i <- 5
    expect_equal(rm_evaluate(y[i, , drop = FALSE], s[i, , drop = FALSE], metric = metric),
                 a[[i]])
  }
  # A label permutation applied to both matrices keeps label-free policies' values.
  cols <- sample(l)
  expect_equal(rm_evaluate(y[, cols], s[, cols], convention = "sklearn",
                           metric = "coverage_error"),
               rm_evaluate(y, s, convention = "sklearn", metric = "coverage_error"))
})

test_that("logical, integer, double and data-frame inputs give the same bits", {
  v <- average_precision(y, s, ties_method = "average")
  expect_identical(average_precision(y == 1, s, ties_method = "average"), v)
  expect_identical(average_precision(y * 1.0, s, ties_method = "average"), v)
  expect_identical(average_precision(as.data.frame(y), as.data.frame(s),
                                     ties_method = "average"), v)
  si <- matrix(as.integer(s * 10), n, l)
  expect_identical(coverage(y, si), coverage(y, si / 1))
})

test_that("per-sample values average to the value, NA where a row is left out", {
  per <- rm_evaluate(y, s, convention = "mldr", metric = "coverage", per_sample = TRUE)
  expect_length(per, n)
  expect_equal(mean(per), coverage(y, s))
  y0 <- y
  y0[1, ] <- 0
  per <- rm_evaluate(y0, s, convention = "sklearn", metric = "label_ranking_loss",
                     per_sample = TRUE)
  expect_true(is.numeric(per))
  expect_equal(rm_evaluate(y0, s, convention = "sklearn", metric = "label_ranking_loss"),
               mean(per, na.rm = TRUE))
})

test_that("tie policies: the expected value lies between the optimistic and pessimistic ends", {
  for (metric in c("coverage", "average_precision", "ranking_loss", "ndcg")) {
    lo <- rm_evaluate(y, s, metric = metric, ties = "optimistic")
    hi <- rm_evaluate(y, s, metric = metric, ties = "pessimistic")
    ex <- rm_evaluate(y, s, metric = metric, ties = "expected")
    expect_true(min(lo, hi) <= ex && ex <= max(lo, hi))
  }
  # A value that is no proven end of the interval warns, with the reason: weighted label-wise
  # precision, and pROC's automatic direction (mldr's AUCs); never an unweighted row-wise end.
  w <- runif(n)
  for (ties in c("optimistic", "pessimistic")) {
    expect_warning(rm_evaluate(y, s, convention = "sklearn", metric = "average_precision_score",
                               ties = ties, sample_weight = w),
                   "label-wise precision also depends", class = "rankmetrics_unproven_end")
    expect_warning(rm_evaluate(y, s, convention = "mldr", metric = "macro_auc", ties = ties),
                   "pROC chooses", class = "rankmetrics_unproven_end")
    expect_no_warning(rm_evaluate(y, s, convention = "sklearn", ties = ties,
                                  metric = "average_precision_score"))
    expect_no_warning(rm_evaluate(y, s, metric = "coverage", ties = ties, sample_weight = w))
  }
  expect_no_warning(rm_evaluate(y, s, convention = "sklearn", metric = "average_precision_score",
                                sample_weight = w))
  # mldr's ties_method and the ties override agree.
  expect_identical(coverage(y, s, ties_method = "min"), coverage(y, s, ties = "min"))
  expect_identical(rm_evaluate(y, s, convention = "mldr", metric = "coverage", ties_method = "max"),
                   coverage(y, s, ties_method = "max"))
})

test_that("sample weights weight the per-sample values", {
  w <- runif(n)
  per <- rm_evaluate(y, s, metric = "average_precision", per_sample = TRUE)
  expect_equal(rm_evaluate(y, s, metric = "average_precision", sample_weight = w),
               sum(w * per) / sum(w), tolerance = 1e-14)
  expect_equal(one_error(y, s, sample_weight = rep(2L, n)), one_error(y, s))
})

test_that("the registry's names and keys are listed", {
  expect_true("coverage_error" %in% rm_metric_names("sklearn"))
  expect_equal(rm_metric_names("mldr"), c("average_precision", "coverage", "one_error",
                                          "ranking_loss", "macro_auc", "example_auc", "micro_auc"))
  expect_equal(rm_param_keys("mldr", "macro_auc"), c("undefined_value", "na_rm"))
  expect_true("roc_auc" %in% rm_metric_names("rankmetrics"))
})

test_that("rm_compare gives the command's grid as a data frame, and plots", {
  g <- rm_compare(y, s)
  expect_s3_class(g, "rm_comparison")
  expect_s3_class(g, "data.frame")
  expect_equal(names(g), c("metric", "over", "max", "min", "average", "first", "last",
                           "sklearn", "torchmetrics", "mldr", "mulan", "pessimistic",
                           "expected", "optimistic", "low", "high", "spread", "outside",
                           "ends_proven", "expected_exact", "note", "error"))
  row <- g[g$metric == "coverage (ranks from 1)", ]
  expect_equal(row$sklearn, rm_evaluate(y, s, convention = "sklearn", metric = "coverage_error"))
  row0 <- g[g$metric == "coverage (ranks from 0)", ]
  expect_equal(row0$mldr, coverage(y, s))
  expect_equal(row0$expected, rm_evaluate(y, s, metric = "coverage", ties = "expected"))
  expect_equal(row$expected, rm_evaluate(y, s, metric = "coverage", ties = "expected",
                                         one_based = TRUE))
  expect_equal(row$pessimistic, rm_evaluate(y, s, metric = "coverage", ties = "pessimistic",
                                            one_based = TRUE))
  ok <- is.finite(g$low) & is.finite(g$expected)
  expect_true(all(g$low[ok] <= g$expected[ok] + 1e-12 & g$expected[ok] <= g$high[ok] + 1e-12))
  w <- runif(n)
  gw <- rm_compare(y, s, sample_weight = w)
  expect_equal(gw[gw$metric == "ranking loss", "sklearn"],
               rm_evaluate(y, s, convention = "sklearn", metric = "label_ranking_loss",
                           sample_weight = w))
  # print() gives the command's table: a line per metric, the legend and the notes.
  printed <- capture.output(print(g))
  expect_match(printed[1], "^metric +max +min +average +first +last +sklearn")
  expect_equal(sub(" .*", "", printed[2:4]), c("coverage", "coverage", "average"))
  expect_true(any(grepl("^interval: \\[low, high\\]", printed)))
  expect_identical(printed, strsplit(attr(g, "table"), "\n", fixed = TRUE)[[1]])
  p <- attr(g, "provenance")
  expect_equal(p$rankmetrics_version, as.character(utils::packageVersion("rankmetrics")))
  expect_equal(p$reproduces$sklearn, "scikit-learn 1.9.1")
  expect_equal(p$inputs$y_score, c(n, l))
  # A subset is a plain data frame, printed as one.
  expect_identical(class(g[1:2, ]), "data.frame")
  expect_null(attr(g[1:2, ], "table"))
  # What the tie analysis guarantees: unweighted, every interval's ends are proven, and only
  # interpolated AP and the geometric means lack an expected value; weighted, label-wise
  # precision's ends are not proven and it has no expected value either.
  precision <- c("label AP, macro", "label AP, geometric mean", "interpolated AP, mean",
                 "interpolated AP, geometric", "AUC-PR, macro")
  no_expected <- c("label AP, geometric mean", "interpolated AP, mean",
                   "interpolated AP, geometric")
  expect_true(all(g$ends_proven))
  expect_equal(g$metric[!g$expected_exact], no_expected)
  expect_true(all(is.na(g$expected[!g$expected_exact])))
  expect_equal(g$metric[!is.na(g$note)], no_expected)
  expect_equal(gw$metric[!gw$ends_proven], precision)
  expect_equal(gw$metric[!gw$expected_exact], precision)
  expect_true(all(grepl("interval ends not proven: with sample weights", gw$note[!gw$ends_proven])))
  expect_true(all(gw$outside[!gw$ends_proven] == ""))
  expect_output(print(gw), "interval ends not proven: with sample weights")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(g), g)
})

test_that("plot and rm_svg draw the command's picture: its layout, panel by panel", {
  g <- rm_compare(y, s)
  chart <- attr(g, "chart")
  expect_identical(rm_svg(g), chart$svg)
  expect_match(rm_svg(g), "^<svg")
  f <- tempfile(fileext = ".svg")
  rm_svg(g, f)
  expect_identical(paste(readLines(f), collapse = "\n"), sub("\n$", "", chart$svg))
  expect_length(chart$panels, nrow(g))
  for (i in seq_along(chart$panels)) {
    p <- chart$panels[[i]]
    expect_identical(p$metric, g$metric[i])
    expect_identical(p$mark_columns, c("max", "min", "average", "first", "last", "sklearn",
                                       "torchmetrics", "mldr", "mulan"))
    # Each value in its own row at its value; red where the grid says it lies outside.
    values <- unlist(g[i, p$mark_columns], use.names = FALSE)
    values[!is.finite(values)] <- NA
    expect_identical(p$mark_values, values)
    outside <- strsplit(g$outside[i], ", ", fixed = TRUE)[[1]]
    expect_identical(p$mark_outside, !is.na(values) & p$mark_columns %in% outside)
    # The axis covers every value; its ticks are round, labelled with their values.
    shown <- values[!is.na(values)]
    expect_true(all(shown > p$range[1] & shown < p$range[2]))
    expect_gte(length(p$tick_values), 4L)
    expect_equal(as.numeric(p$tick_labels), p$tick_values)
    expect_true(all(diff(p$tick_values) > 0))
    # The interval's ends, labelled as the table prints them.
    if (is.finite(g$low[i]) && is.finite(g$high[i])) {
      expect_equal(p$band, c(g$low[i], g$high[i]))
      expect_identical(p$band_labels, sprintf("%.4f", c(g$low[i], g$high[i])))
    } else {
      expect_null(p$band)
    }
    expect_identical(p$rule, 6L)
  }
  expect_error(rm_svg(g[1:2, ]), "plot the whole result of rm_compare")
})

test_that("double matrices are read where R keeps them: no copy", {
  skip_if_not(capabilities("profmem"), "R built without memory profiling")
  yd <- y * 1.0
  sd <- s + 0
  copies <- capture.output({
    tracemem(yd)
    tracemem(sd)
    coverage(yd, sd)
    rm_evaluate(yd, sd, convention = "sklearn", metric = "label_ranking_loss")
    rm_compare(yd, sd)
    untracemem(yd)
    untracemem(sd)
  })
  expect_identical(copies, character())
})

test_that("ties_method takes abbreviations of R's six names, as rank() does", {
  y <- matrix(c(1, 0, 1, 0, 1, 1, 0, 1), nrow = 2, byrow = TRUE)
  s <- matrix(c(0.5, 0.5, 0.5, 0.1, 0.3, 0.3, 0.9, 0.3), nrow = 2, byrow = TRUE)
  for (ab in c("av", "f", "la", "mi", "ma", "r")) {
    full <- match.arg(ab, c("average", "first", "last", "random", "max", "min"))
    expect_identical(coverage(y, s, ties_method = ab), coverage(y, s, ties_method = full))
    expect_identical(average_precision(y, s, ties_method = ab),
                     average_precision(y, s, ties_method = full))
  }
  expect_false(identical(coverage(y, s, ties_method = "mi"), coverage(y, s, ties_method = "ma")))
  # Ambiguous for rank() too.
  expect_error(rank(1, ties.method = "m"))
  expect_error(coverage(y, s, ties_method = "m"), class = "rankmetrics_parameter")
  # rankmetrics' own policies pass as they are.
  expect_identical(coverage(y, s, ties_method = "expected"),
                   rm_evaluate(y, s, convention = "mldr", metric = "coverage", ties = "expected"))
})

test_that("rm_compare's mldr column has R's NA where mldr gives NA, as rm_evaluate", {
  y <- matrix(c(1, 1, 1, 0, 0, 0), nrow = 2, byrow = TRUE)
  s <- matrix(c(0.5, 0.5, 0.1, 0.9, 0.2, 0.2), nrow = 2, byrow = TRUE)
  g <- rm_compare(y, s)
  # Every label of both rows is the same: mldr's per-sample AUC is undefined.
  v <- g$mldr[g$metric == "AUC, per sample"]
  expect_true(is.na(v))
  expect_false(is.nan(v))
  expect_false(any(is.nan(g$mldr)))
  expect_identical(v, rm_evaluate(y, s, convention = "mldr", metric = "example_auc",
                                  undefined_value = NA))
})

test_that("the micro averages give the same values whatever the pool's limit", {
  # More cells than one piece of the pooled ranking (2^17): a small limit makes several windows.
  big_n <- 700
  big_l <- 400
  big_y <- matrix(rbinom(big_n * big_l, 1, 0.1), big_n, big_l)
  big_s <- matrix(round(runif(big_n * big_l), 3), big_n, big_l)
  micro <- function() {
    c(rm_evaluate(big_y, big_s, convention = "sklearn", metric = "roc_auc_score",
                  average = "micro"),
      rm_evaluate(big_y, big_s, convention = "sklearn", metric = "average_precision_score",
                  average = "micro"),
      rm_evaluate(big_y, big_s, convention = "mldr", metric = "micro_auc"),
      micro_auc(big_y, big_s))
  }
  whole <- micro()
  on.exit(rm_set_micro_pool_cells(NULL))
  for (cells in c(3, 50000, 2^17)) {
    rm_set_micro_pool_cells(cells)
    expect_identical(micro(), whole, label = paste("limit", cells))
  }
  rm_set_micro_pool_cells(NULL)
  expect_identical(micro(), whole)
  for (bad in list(0, -1, 1.5, NA, NaN, Inf, "3", c(3, 4), TRUE, 2^53)) {
    expect_error(rm_set_micro_pool_cells(bad), class = "rankmetrics_parameter")
  }
})
