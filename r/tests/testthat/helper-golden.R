# The golden records of tests/data/conformance (the repository's copy of what scikit-learn,
# torchmetrics, mldr and MULAN return on shared inputs). The directory comes from
# RANKMETRICS_CONFORMANCE_DIR (set by scripts/test), else from the repository around an
# in-place test run; the tests that need it are skipped when neither exists (a source
# package installed on its own carries no golden files).
conformance_dir <- function() {
  dir <- Sys.getenv("RANKMETRICS_CONFORMANCE_DIR")
  if (nzchar(dir)) {
    if (!dir.exists(dir)) stop("RANKMETRICS_CONFORMANCE_DIR does not exist: ", dir)
    return(dir)
  }
  here <- normalizePath(file.path(getwd(), "..", "..", "..", "tests", "data", "conformance"),
                        mustWork = FALSE)
  if (dir.exists(here)) here else NULL
}

read_json <- function(dir, name) {
  jsonlite::fromJSON(file.path(dir, name), simplifyVector = TRUE, simplifyDataFrame = FALSE,
                     simplifyMatrix = TRUE)
}

# Cases by id, their matrices as R matrices (rows = samples).
read_cases <- function(dir, files = c("cases.json", "cases-logits.json")) {
  out <- list()
  for (f in files) {
    for (case in read_json(dir, f)$cases) {
      case$y_true <- as_matrix(case$y_true)
      case$y_score <- as_matrix(case$y_score)
      storage.mode(case$y_score) <- "double"
      out[[case$id]] <- case
    }
  }
  out
}

# jsonlite makes a matrix of [[...], ...] except when every row has one value (a vector).
as_matrix <- function(x) {
  if (is.matrix(x)) return(x)
  if (is.list(x)) return(do.call(rbind, x))
  matrix(x, ncol = 1L)
}

# A golden number: a JSON number or "nan", "inf", "-inf".
golden_number <- function(v) {
  if (is.character(v)) return(switch(v, nan = NaN, inf = Inf, "-inf" = -Inf))
  as.double(v)
}

# The data README's comparison: relative tolerance, exact at 0 and infinity, NaN only with
# NaN (R's NA included).
close_to <- function(ours, expected, rel) {
  if (is.na(expected) || is.na(ours)) return(is.na(expected) && is.na(ours))
  if (is.infinite(expected) || expected == 0) return(identical(ours, expected))
  abs(ours - expected) <= rel * abs(expected)
}

# The value, or the condition raised.
outcome <- function(expr) {
  tryCatch(list(value = force(expr), error = NULL),
           rankmetrics_error = function(e) list(value = NULL, error = e))
}

# The record's parameters without sample_weight and nulls, and whether weights apply.
record_params <- function(record) {
  p <- record$params
  weighted <- isTRUE(p$sample_weight) && is.null(record$sample_weight_ignored)
  p$sample_weight <- NULL
  p <- p[!vapply(p, is.null, logical(1))]
  list(params = p, weighted = weighted)
}
