# The scikit-learn, torchmetrics and MULAN golden records through rm_evaluate(convention =
# ...), judged as the repository's Rust and Python conformance tests judge them (the data
# README's tolerances): the value, or an error where the toolkit raised; a tie-order
# dependent scikit-learn value within its range; torchmetrics' LRAP and NDCG bitwise; torchmetrics'
# float64 re-evaluation (value_f64) where given; MULAN's Weka 3.9 value with weka = "3.9".

# torchmetrics' metrics whose float32 arithmetic the presets follow on request.
float32_arithmetic <- c("multilabel_ranking_average_precision", "retrieval_normalized_dcg")

judge <- function(toolkit, record, got, case, redo) {
  rel <- c(sklearn = 1e-12, torchmetrics = 1e-12, mulan = 1e-15)[[toolkit]]
  if (!is.null(record$error)) return(if (!is.null(got$error)) "passed" else "failed")
  if (!is.null(got$error)) return("failed")
  v <- got$value
  if (isTRUE(record$tie_order_dependent) && toolkit == "sklearn") {
    lo <- golden_number(record$range[[1]])
    hi <- golden_number(record$range[[2]])
    slack <- 1e-12 * max(abs(lo), abs(hi))
    # scikit-learn's own output where its sort took the preset's order; else inside the range.
    if (close_to(v, golden_number(record$value), rel)) return("passed")
    return(if (v >= lo - slack && v <= hi + slack) "in_range" else "failed")
  }
  ok <- if (isTRUE(record$tie_order_dependent) && toolkit == "torchmetrics") {
    # torch's argsort order is followed: torchmetrics' own float32 output, not value_f64,
    # which assumed a stable sort.
    close_to(v, golden_number(record$value), 1e-6)
  } else if (toolkit == "torchmetrics" && record$metric %in% float32_arithmetic) {
    # torchmetrics' float32 arithmetic is followed: its own output, bitwise.
    identical(v, golden_number(record$value))
  } else if (!is.null(record$value_f64)) {
    # The float64 re-evaluation, and torchmetrics' own (float32) output.
    close_to(v, golden_number(record$value_f64), rel) &&
      close_to(v, golden_number(record$value), 1e-6)
  } else if (identical(record$dtype, "float32")) {
    close_to(v, golden_number(record$value), 1e-6)
  } else {
    close_to(v, golden_number(record$value), rel)
  }
  if (ok && !is.null(record$value_weka39)) {
    w39 <- redo(list(weka = "3.9"))
    ok <- is.null(w39$error) && close_to(w39$value, golden_number(record$value_weka39), rel)
  }
  if (ok) "passed" else "failed"
}

counts <- c(sklearn = 4097L, torchmetrics = 912L, mulan = 1716L)

for (toolkit in names(counts)) {
  test_that(sprintf("every %s golden record is reproduced through rm_evaluate", toolkit), {
    dir <- conformance_dir()
    skip_if(is.null(dir), "tests/data/conformance not found")
    cases <- read_cases(dir)
    records <- jsonlite::fromJSON(file.path(dir, sprintf("golden-%s.json", toolkit)),
                                  simplifyVector = FALSE)$results
    expect_length(records, counts[[toolkit]])
    known <- rm_metric_names(toolkit)
    tally <- c(passed = 0L, in_range = 0L, skipped = 0L, failed = 0L)
    failures <- character()
    for (record in records) {
      if (!(record$metric %in% known)) {
        tally[["skipped"]] <- tally[["skipped"]] + 1L
        next
      }
      case <- cases[[record$case]]
      rp <- record_params(record)
      # torchmetrics' LRAP and NDCG in its float32 arithmetic, as the presets follow it on request.
      if (toolkit == "torchmetrics" && record$metric %in% float32_arithmetic) {
        rp$params$arithmetic <- "float32"
      }
      w <- if (rp$weighted) as.double(unlist(case$sample_weight)) else NULL
      redo <- function(extra) {
        outcome(do.call(rm_evaluate, c(list(case$y_true, case$y_score, convention = toolkit,
                                            metric = record$metric, sample_weight = w),
                                       rp$params, extra)))
      }
      got <- redo(list())
      verdict <- judge(toolkit, record, got, case, redo)
      tally[[verdict]] <- tally[[verdict]] + 1L
      if (verdict == "failed") {
        failures <- c(failures, sprintf("%s %s %s: expected %s, got %s", record$case,
          record$metric, jsonlite::toJSON(record$params, auto_unbox = TRUE, null = "null"),
          if (is.null(record$error)) format(record$value) else record$error,
          if (is.null(got$error)) format(got$value, digits = 17) else conditionMessage(got$error)))
      }
    }
    message(sprintf("%s golden records: %s", toolkit,
                    paste(tally, names(tally), collapse = ", ")))
    expect_equal(head(failures, 10), character())
    expect_equal(tally[["failed"]], 0L)
    expect_equal(sum(tally), counts[[toolkit]])
  })
}

# float32 with R's doubles: the scores rounded to float32 (writeBin with size 4), then
# torchmetrics' presets with dtype = "float32" (its float32 arithmetic).
as_float32 <- function(x) {
  out <- readBin(writeBin(as.vector(x), raw(), size = 4L), "double", size = 4L, n = length(x))
  dim(out) <- dim(x)
  out
}

test_that("every torchmetrics float32 golden record is reproduced with dtype = \"float32\"", {
  dir <- conformance_dir()
  skip_if(is.null(dir), "tests/data/conformance not found")
  cases <- read_cases(dir)
  records <- jsonlite::fromJSON(file.path(dir, "golden-torchmetrics-f32.json"),
                                simplifyVector = FALSE)$results
  expect_length(records, 585L)
  tally <- c(passed = 0L, failed = 0L)
  failures <- character()
  for (record in records) {
    case <- cases[[record$case]]
    s32 <- as_float32(case$y_score)
    lrap <- record$metric == "multilabel_ranking_average_precision"
    extra <- if (lrap) list(arithmetic = "float32") else list()
    got <- outcome(do.call(rm_evaluate, c(list(case$y_true, s32, convention = "torchmetrics",
                                               metric = record$metric, dtype = "float32"),
                                          extra)))
    verdict <- if (!is.null(record$error)) {
      if (!is.null(got$error)) "passed" else "failed"
    } else if (!is.null(got$error)) {
      "failed"
    } else if (close_to(got$value, golden_number(record$value), 1e-6) &&
               (!lrap || identical(got$value, golden_number(record$value)))) {
      # torch's argsort order is followed, tie-order records included; LRAP to the bit.
      "passed"
    } else {
      "failed"
    }
    tally[[verdict]] <- tally[[verdict]] + 1L
    if (verdict == "failed") {
      failures <- c(failures, sprintf("%s %s: expected %s, got %s", record$case, record$metric,
        if (is.null(record$error)) format(record$value) else record$error,
        if (is.null(got$error)) format(got$value, digits = 17) else conditionMessage(got$error)))
    }
  }
  message(sprintf("torchmetrics-f32 golden records: %s", paste(tally, names(tally), collapse = ", ")))
  expect_equal(head(failures, 10), character())
  expect_equal(tally[["failed"]], 0L)
  expect_equal(sum(tally), 585L)
})

# With torch's AVX-512 sigmoid kernel, as on the machine that made the file.
test_that("every torchmetrics AUROC and AP golden record is reproduced in its dtype", {
  dir <- conformance_dir()
  skip_if(is.null(dir), "tests/data/conformance not found")
  cases <- read_cases(dir)
  records <- jsonlite::fromJSON(file.path(dir, "golden-torchmetrics-auc.json"),
                                simplifyVector = FALSE)$results
  expect_length(records, 2340L)
  failures <- character()
  for (record in records) {
    case <- cases[[record$case]]
    dtype <- record$params$dtype
    scores <- if (dtype == "float32") as_float32(case$y_score) else case$y_score
    got <- outcome(rm_evaluate(case$y_true, scores, convention = "torchmetrics",
                               metric = record$metric, average = record$params$average,
                               dtype = dtype, sigmoid = "avx512"))
    ok <- if (!is.null(record$error)) {
      !is.null(got$error)
    } else {
      is.null(got$error) && close_to(got$value, golden_number(record$value), 1e-6)
    }
    if (!ok) {
      failures <- c(failures, sprintf("%s %s %s %s: expected %s, got %s", record$case,
        record$metric, record$params$average, dtype,
        if (is.null(record$error)) format(record$value) else record$error,
        if (is.null(got$error)) format(got$value, digits = 17) else conditionMessage(got$error)))
    }
  }
  message(sprintf("torchmetrics AUROC/AP golden records: %d passed, %d failed",
                  length(records) - length(failures), length(failures)))
  expect_equal(head(failures, 10), character())
})

test_that("every torchmetrics retrieval golden record is reproduced to the bit", {
  dir <- conformance_dir()
  skip_if(is.null(dir), "tests/data/conformance not found")
  cases <- read_cases(dir)
  records <- jsonlite::fromJSON(file.path(dir, "golden-torchmetrics-retrieval.json"),
                                simplifyVector = FALSE)$results
  expect_length(records, 3165L)
  failures <- character()
  for (record in records) {
    case <- cases[[record$case]]
    # torch's float32 mean over the rows.
    params <- c(Filter(Negate(is.null), record$params), list(arithmetic = "float32"))
    got <- outcome(do.call(rm_evaluate, c(list(case$y_true, case$y_score,
                                               convention = "torchmetrics",
                                               metric = record$metric), params)))
    ok <- if (!is.null(record$error)) {
      !is.null(got$error)
    } else {
      is.null(got$error) && identical(got$value, golden_number(record$value))
    }
    if (!ok) {
      failures <- c(failures, sprintf("%s %s %s: expected %s, got %s", record$case,
        record$metric, jsonlite::toJSON(record$params, auto_unbox = TRUE, null = "null"),
        if (is.null(record$error)) format(record$value) else record$error,
        if (is.null(got$error)) format(got$value, digits = 17) else conditionMessage(got$error)))
    }
  }
  message(sprintf("torchmetrics retrieval golden records: %d passed, %d failed",
                  length(records) - length(failures), length(failures)))
  expect_equal(head(failures, 10), character())
})
