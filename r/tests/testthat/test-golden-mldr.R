# Every record of golden-mldr.json (mldr 0.4.2 with pROC 1.18.0 on R 4.2.2) through the
# mldr-named functions, called as mldr is called, and through rm_evaluate(convention =
# "mldr"): mldr's value (1e-15 relative; NA where mldr gives NA) or, where mldr raised, an
# error (of class rankmetrics_single_class where mldr's micro_auc found one class only). One documented deviation: mldr's "subscript out of bounds" on a single label column
# (an indexing bug of mldr) gives the value here.

test_that("every mldr golden record is reproduced by the mldr-named functions", {
  dir <- conformance_dir()
  skip_if(is.null(dir), "tests/data/conformance not found")
  cases <- read_cases(dir, "cases.json")
  golden <- jsonlite::fromJSON(file.path(dir, "golden-mldr.json"), simplifyVector = FALSE)
  records <- golden$results
  expect_length(records, 2772L)
  tally <- c(passed = 0L, deviation = 0L, failed = 0L)
  failures <- character()
  for (record in records) {
    case <- cases[[record$case]]
    p <- record_params(record)$params
    args <- list()
    if (!is.null(p$ties_method)) args$ties_method <- p$ties_method
    if (!is.null(p$undefined_value)) {
      args$undefined_value <- if (identical(p$undefined_value, "NA")) NA else p$undefined_value
    }
    if (!is.null(p$na_rm)) args$na.rm <- p$na_rm
    fun <- get(record$metric, envir = asNamespace("rankmetrics"))
    # The named function on the labels as JSON gives them (an integer matrix), and
    # rm_evaluate on double labels: the same preset, so the same bits.
    named <- outcome(do.call(fun, c(list(case$y_true, case$y_score), args)))
    y64 <- case$y_true
    storage.mode(y64) <- "double"
    by_name <- outcome(do.call(rm_evaluate, c(list(y64, case$y_score, convention = "mldr",
                                                   metric = record$metric), p)))
    verdict <- if (!is.null(record$error)) {
      # Where mldr's message says what is wrong, the condition's class says the same.
      class <- switch(record$error, "'response' must have two levels" = "rankmetrics_single_class",
                      "rankmetrics_error")
      if (inherits(named$error, class) && inherits(by_name$error, class)) {
        "passed"
      } else if (record$error == "subscript out of bounds" && ncol(case$y_true) == 1L &&
                 is.null(named$error)) {
        "deviation"
      } else {
        "failed"
      }
    } else if (is.null(named$error) && is.null(by_name$error) &&
               identical(named$value, by_name$value)) {
      expected <- golden_number(record$value)
      ok <- close_to(named$value, expected, 1e-15)
      # mldr's NA is R's NA, not NaN.
      if (ok && identical(record$r_value, "NA")) ok <- is.na(named$value) && !is.nan(named$value)
      if (ok) "passed" else "failed"
    } else {
      "failed"
    }
    tally[[verdict]] <- tally[[verdict]] + 1L
    if (verdict == "failed") {
      failures <- c(failures, sprintf("%s %s %s: expected %s, got %s / %s", record$case,
        record$metric, jsonlite::toJSON(record$params, auto_unbox = TRUE),
        if (is.null(record$error)) format(record$value) else record$error,
        if (is.null(named$error)) format(named$value, digits = 17) else conditionMessage(named$error),
        if (is.null(by_name$error)) format(by_name$value, digits = 17) else conditionMessage(by_name$error)))
    }
  }
  message(sprintf("mldr golden records: %d passed, %d deviation, %d failed",
                  tally[["passed"]], tally[["deviation"]], tally[["failed"]]))
  expect_equal(head(failures, 10), character())
  expect_equal(tally[["failed"]], 0L)
  expect_equal(sum(tally), 2772L)
  # The deviation is exactly the single-column "subscript out of bounds" records.
  oob <- vapply(records, function(r) identical(r$error, "subscript out of bounds"), logical(1))
  expect_equal(tally[["deviation"]], sum(oob))
})

# golden-mldr-nan.json (made by regen/mldr_golden.R nan): macro_auc and example_auc with
# undefined_value = NaN, R's NaN rather than NA. mldr's mean() then gives NaN where some label
# (or row) has both classes and NA where none has: each is what the functions return.
test_that("undefined_value = NaN gives NaN or NA as mldr gives it", {
  dir <- conformance_dir()
  skip_if(is.null(dir), "tests/data/conformance not found")
  cases <- read_cases(dir, "cases.json")
  records <- jsonlite::fromJSON(file.path(dir, "golden-mldr-nan.json"),
                                simplifyVector = FALSE)$results
  expect_length(records, 528L)
  kinds <- c(nan = 0L, na = 0L, value = 0L, error = 0L)
  failures <- character()
  for (record in records) {
    case <- cases[[record$case]]
    fun <- get(record$metric, envir = asNamespace("rankmetrics"))
    got <- outcome(fun(case$y_true, case$y_score, undefined_value = NaN,
                       na.rm = record$params$na_rm))
    kind <- if (!is.null(record$error)) "error" else if (identical(record$r_value, "NaN")) {
      "nan"
    } else if (identical(record$r_value, "NA")) "na" else "value"
    ok <- switch(kind,
      error = !is.null(got$error),
      nan = is.null(got$error) && is.nan(got$value),
      na = is.null(got$error) && is.na(got$value) && !is.nan(got$value),
      value = is.null(got$error) && close_to(got$value, golden_number(record$value), 1e-15))
    kinds[[kind]] <- kinds[[kind]] + 1L
    if (!ok) {
      failures <- c(failures, sprintf("%s %s na.rm=%s: expected %s, got %s", record$case,
                                      record$metric, record$params$na_rm, kind,
                                      format(got$value)))
    }
  }
  expect_equal(head(failures, 10), character())
  # mldr's NaN in 91 of them, its NA in 92.
  expect_equal(kinds[["nan"]], 91L)
  expect_equal(kinds[["na"]], 92L)
})
