# Regenerates golden-mldr.json (mode "golden") or golden-mldr-nan.json (mode "nan") by running
# mldr's own evaluation functions, sourced unchanged from its source, on every binary case of
# cases.json, as tests/data/conformance/README.md describes:
#
#   Rscript mldr_golden.R MODE MLDR_SOURCE CASES.json > OUT.json
#
# MLDR_SOURCE is a checkout (or unpacked source package) of mldr 0.4.2: its R/evmetrics_rk.R
# is sourced. pROC 1.18.0 and jsonlite must be installed (Debian: r-cran-proc,
# r-cran-jsonlite). Mode "nan" calls macro_auc and example_auc with undefined_value = NaN
# (R's NaN, not NA), na.rm FALSE and TRUE: there mldr returns NaN where some label (or row) has
# both classes and another has one, and NA where none has both.

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 3L || !(args[[1]] %in% c("golden", "nan"))) {
  stop("usage: Rscript mldr_golden.R golden|nan MLDR_SOURCE CASES.json")
}
mode <- args[[1]]
mldr <- new.env()
sys.source(file.path(args[[2]], "R", "evmetrics_rk.R"), envir = mldr)
cases <- jsonlite::fromJSON(args[[3]], simplifyVector = FALSE)$cases

# JSON text of a string.
quoted <- function(s) jsonlite::toJSON(s, auto_unbox = TRUE)

# The shortest decimal that reads back to the same double.
shortest <- function(x) {
  for (digits in 15:17) {
    text <- sprintf(paste0("%.", digits, "g"), x)
    if (as.numeric(text) == x) break
  }
  # JSON numbers: R writes 1e-05 and Inf as no JSON reader takes them otherwise.
  text
}

number_or_name <- function(v) {
  if (is.character(v)) quoted(v) else if (is.logical(v)) tolower(as.character(v)) else shortest(v)
}

# One record: the value (or the error), R's NA or NaN, the warnings.
record <- function(case, metric, params, f) {
  warnings <- character(0)
  result <- withCallingHandlers(
    tryCatch(list(value = f()), error = function(e) list(error = conditionMessage(e))),
    warning = function(w) {
      warnings <<- c(warnings, conditionMessage(w))
      invokeRestart("muffleWarning")
    }
  )
  param_text <- if (length(params) == 0L) "{}" else paste0(
    "{", paste(sprintf("%s: %s", vapply(names(params), quoted, character(1)), vapply(params, number_or_name,
                                                                 character(1))),
               collapse = ", "), "}")
  fields <- c(sprintf("\"case\": %s", quoted(case$id)), sprintf("\"metric\": %s", quoted(metric)),
              sprintf("\"params\": %s", param_text))
  if (!is.null(result$error)) {
    fields <- c(fields, sprintf("\"error\": %s", quoted(result$error)))
  } else {
    v <- as.numeric(result$value)
    if (is.na(v)) {
      fields <- c(fields, "\"value\": \"nan\"",
                  sprintf("\"r_value\": \"%s\"", if (is.nan(v)) "NaN" else "NA"))
    } else {
      fields <- c(fields, sprintf("\"value\": %s", shortest(v)))
    }
    if (length(warnings) > 0L) {
      fields <- c(fields, sprintf("\"warning\": %s", quoted(paste(warnings, collapse = "; "))))
    }
  }
  if (!is.null(case$sample_weight)) fields <- c(fields, "\"sample_weight_ignored\": true")
  paste0("{", paste(fields, collapse = ", "), "}")
}

records <- character(0)
for (case in cases) {
  if (!identical(case$kind, "binary")) next
  n <- length(case$y_true)
  y <- matrix(as.numeric(unlist(case$y_true)), nrow = n, byrow = TRUE)
  s <- matrix(as.numeric(unlist(case$y_score)), nrow = n, byrow = TRUE)
  add <- function(metric, params, f) records <<- c(records, record(case, metric, params, f))
  auc_settings <- if (mode == "golden") {
    list(list(0.5, FALSE), list(0, FALSE), list(NA, FALSE), list(NA, TRUE))
  } else {
    list(list(NaN, FALSE), list(NaN, TRUE))
  }
  if (mode == "golden") {
    for (m in c("average", "first", "last", "max", "min")) {
      add("average_precision", list(ties_method = m),
          function() mldr$average_precision(y, s, ties_method = m))
      add("coverage", list(ties_method = m), function() mldr$coverage(y, s, ties_method = m))
    }
    add("one_error", list(), function() mldr$one_error(y, s))
    add("ranking_loss", list(), function() mldr$ranking_loss(y, s))
    add("micro_auc", list(), function() mldr$micro_auc(y, s))
  }
  for (setting in auc_settings) {
    u <- setting[[1]]
    r <- setting[[2]]
    shown <- if (is.nan(u)) "NaN" else if (is.na(u)) "NA" else u
    params <- list(undefined_value = shown, na_rm = r)
    add("macro_auc", params, function() mldr$macro_auc(y, s, undefined_value = u, na.rm = r))
    add("example_auc", params, function() mldr$example_auc(y, s, undefined_value = u, na.rm = r))
  }
}

version <- paste0("mldr 0.4.2 (R/evmetrics_rk.R sourced unchanged) + pROC ",
                  as.character(packageVersion("pROC")), " + ", R.version.string)
cat("{\"library\": \"mldr\", \"version\": ", quoted(version), ", \"results\": [\n",
    paste(records, collapse = ",\n"), "\n]}\n", sep = "")
