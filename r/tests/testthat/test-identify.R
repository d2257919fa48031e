# rm_identify: every golden record's toolkit value, rounded to 4 decimals and searched over
# every family on the record's case, lists that toolkit's metric with the record's parameters
# (as the library's, the command's and Python's tests check); and its objects.

golden_files <- c(
  "golden-sklearn.json" = "sklearn",
  "golden-torchmetrics.json" = "torchmetrics",
  "golden-torchmetrics-f32.json" = "torchmetrics",
  "golden-torchmetrics-auc.json" = "torchmetrics",
  "golden-torchmetrics-retrieval.json" = "torchmetrics",
  "golden-mldr.json" = "mldr",
  "golden-mulan.json" = "mulan"
)

param_text <- function(v) {
  if (is.logical(v)) return(if (v) "true" else "false")
  if (is.numeric(v) && v == round(v)) return(format(v, scientific = FALSE))
  as.character(v)
}

# The registry name, the parameters the match must carry and whether weights apply, as
# tests/common/identify_golden.rs has them.
wanted <- function(convention, record, labels) {
  rp <- record_params(record)
  params <- vapply(rp$params, param_text, character(1))
  keys <- rm_param_keys(convention, record$metric)
  if ("dtype" %in% keys && !("dtype" %in% names(params))) {
    params[["dtype"]] <- if (!is.null(record$scores_f32)) "float32" else "float64"
  }
  if ("arithmetic" %in% keys) params[["arithmetic"]] <- "float32"
  if ("sigmoid" %in% keys && isTRUE(record$sigmoid_applied)) params[["sigmoid"]] <- "avx512"
  if ("weka" %in% keys) params[["weka"]] <- "3.7"
  for (k in c("k", "top_k")) {
    if (k %in% names(params) && as.numeric(params[[k]]) >= labels &&
        record$metric != "retrieval_precision") {
      params <- params[names(params) != k]
    }
  }
  params <- params[names(params) != "num_recall_levels"]
  list(metric = record$metric, params = params, weighted = rp$weighted)
}

defaults <- c(one_based = "false", ignore_ties = "false", adaptive_k = "false",
              average = "macro", ties_method = "last", weka = "3.7",
              undefined_value = "0.5", na_rm = "false")

found_in <- function(matches, convention, want, labels) {
  rows <- which(matches$convention == convention & matches$metric == want$metric)
  for (i in rows) {
    words <- strsplit(matches$params[[i]], " ", fixed = TRUE)[[1]]
    words <- words[nzchar(words)]
    got <- setNames(sub("^[^=]*=", "", words), sub("=.*$", "", words))
    if (!all(names(want$params) %in% names(got))) next
    if (!all(got[names(want$params)] == want$params)) next
    extra <- got[!(names(got) %in% names(want$params))]
    ok <- vapply(names(extra), function(k) {
      identical(unname(defaults[k]), unname(extra[[k]])) ||
        (k %in% c("k", "top_k") && extra[[k]] == as.character(labels))
    }, logical(1))
    if (all(ok)) return(TRUE)
  }
  FALSE
}

test_that("rm_identify finds the convention of every golden record", {
  dir <- conformance_dir()
  skip_if(is.null(dir), "no golden files")
  cases <- read_cases(dir)
  searches <- list()
  no_value <- 0L
  for (file in names(golden_files)) {
    convention <- golden_files[[file]]
    for (record in read_json(dir, file)$results) {
      value <- record$value
      if (is.null(value) || is.character(value) || !is.finite(value)) {
        no_value <- no_value + 1L
        next
      }
      case <- cases[[record$case]]
      want <- wanted(convention, record, ncol(case$y_true))
      key <- paste(record$case, want$weighted)
      searches[[key]] <- c(searches[[key]], list(list(
        convention = convention, record = record, value = value, want = want)))
    }
  }
  found <- 0L
  tie_dependent <- 0L
  missed <- character(0)
  for (key in names(searches)) {
    group <- searches[[key]]
    case <- cases[[group[[1]]$record$case]]
    w <- if (group[[1]]$want$weighted) case$sample_weight else NULL
    values <- vapply(group, function(g) sprintf("%.4f", g$value), character(1))
    results <- rm_identify(case$y_true, case$y_score, values, sample_weight = w)
    if (length(values) == 1L) results <- list(results)
    for (i in seq_along(group)) {
      g <- group[[i]]
      if (found_in(results[[i]]$matches, g$convention, g$want, ncol(case$y_true))) {
        found <- found + 1L
      } else if (isTRUE(g$record$tie_order_dependent)) {
        tie_dependent <- tie_dependent + 1L
      } else {
        missed <- c(missed, sprintf("%s %s %s = %s", g$record$case, g$convention,
                                    g$want$metric, values[[i]]))
      }
    }
  }
  expect_equal(missed, character(0))
  expect_equal(c(found, tie_dependent, no_value), c(13913L, 230L, 1444L))
})

y <- matrix(c(1, 0, 1, 0, 1, 0), nrow = 2, byrow = TRUE)
s <- matrix(c(0.5, 0.5, 0.1, 0.3, 0.3, 0.3), nrow = 2, byrow = TRUE)

test_that("an identification prints the command's table", {
  found <- rm_identify(y, s, "0.625", metric = "ranking_loss")
  out <- capture.output(print(found))
  expect_equal(out[[1]], "0.625 (±0.0005), ranking_loss: 2 of 14 candidates give it")
  expect_equal(found$matches$ties, c("average", "expected"))
  expect_equal(found$interval, c(0.25, 1))
  expect_equal(found$expected, 0.625)
})

test_that("numbers are read as printed and several values give a list", {
  expect_equal(rm_identify(y, s, 0.625)$tolerance, 0.0005)
  many <- rm_identify(y, s, c("62.5%", "1"))
  expect_s3_class(many, "rm_identifications")
  expect_equal(vapply(many, function(m) m$reported, numeric(1)), c(0.625, 1))
  # Numbers as R prints them, never in scientific notation: 1e5 is 100000, to within 0.5.
  big <- rm_identify(y, s, c(1e5, 0.00001))
  expect_equal(vapply(big, function(m) m$tolerance, numeric(1)), c(0.5, 0.000005))
  expect_error(rm_identify(y, s, "1e-2147483648"), "beyond float64's range")
})

test_that("no match gives the closest", {
  found <- rm_identify(y, s, "0.1234", metric = "ranking_loss")
  expect_equal(nrow(found$matches), 0L)
  expect_equal(nrow(found$closest), 3L)
  expect_equal(capture.output(print(found))[[2]], "the closest:")
})

test_that("bad requests raise parameter conditions", {
  expect_error(rm_identify(y, s, "0,625"), "cannot read the reported value",
               class = "rankmetrics_parameter")
  expect_error(rm_identify(y, s, "0.625", metric = "lrapp"), "unknown metric family",
               class = "rankmetrics_parameter")
  expect_error(rm_identify(y, s, "0.625", tolerance = -1), "the tolerance -1",
               class = "rankmetrics_parameter")
  expect_error(rm_identify(y, s, NA), "value must be", class = "rankmetrics_parameter")
  expect_error(rm_identify(y, s[, 1:2], "0.5"), "2 x 3", class = "rankmetrics_error")
})
