# Every entry of the registry through rm_evaluate: the bits that tests/data/registry/values.json
# keeps (written from the library and the command) on one input with ties, so the front doors
# agree on every metric of every convention.

registry_values <- function() {
  dir <- conformance_dir()
  if (is.null(dir)) return(NULL)
  path <- file.path(dirname(dir), "registry", "values.json")
  if (!file.exists(path)) return(NULL)
  jsonlite::fromJSON(path, simplifyVector = TRUE, simplifyDataFrame = FALSE,
                     simplifyMatrix = TRUE)
}

bits_of <- function(v) paste(as.character(writeBin(v, raw(), endian = "big")), collapse = "")

test_that("every registry entry gives the library's bits", {
  data <- registry_values()
  skip_if(is.null(data), "tests/data/registry not found")
  y <- as_matrix(data$y_true)
  s <- as_matrix(data$y_score)
  storage.mode(s) <- "double"
  for (convention in c("rankmetrics", "sklearn", "torchmetrics", "mldr", "mulan")) {
    listed <- vapply(Filter(function(c) c$convention == convention, data$cases),
                     function(c) c$metric, "")
    expect_identical(rm_metric_names(convention), listed)
  }
  for (case in data$cases) {
    args <- c(list(y, s, convention = case$convention, metric = case$metric), case$params)
    label <- paste(case$convention, case$metric)
    if (!is.null(case$result$error)) {
      expect_error(do.call(rm_evaluate, args), class = "rankmetrics_error", label = label)
    } else {
      v <- do.call(rm_evaluate, args)
      if (is.null(case$result$value)) {
        # NaN (no JSON number): R's mldr convention gives NA, the others NaN.
        expect_true(is.na(v), label = label)
      } else {
        expect_identical(bits_of(v), case$result$bits, label = label)
      }
    }
  }
})
