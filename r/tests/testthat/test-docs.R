# docs/r.md's examples: each ```r block runs (in one environment, in order) and prints
# what its #> lines say; the installation block is shown, not run.

docs_file <- function() {
  dir <- conformance_dir()
  if (is.null(dir)) return(NULL)
  f <- file.path(dir, "..", "..", "..", "docs", "r.md")
  if (file.exists(f)) f else NULL
}

test_that("every example of docs/r.md prints what the page says", {
  f <- docs_file()
  skip_if(is.null(f), "docs/r.md not found")
  lines <- readLines(f)
  starts <- which(lines == "```r")
  expect_gt(length(starts), 4L)
  env <- new.env(parent = globalenv())
  old <- options(width = 80)
  on.exit(options(old))
  for (start in starts) {
    end <- start + which(lines[(start + 1):length(lines)] == "```")[1]
    block <- lines[(start + 1):(end - 1)]
    # Installation commands are shown, not run (the test runs in the installed package).
    if (any(grepl("install.packages(", block, fixed = TRUE))) next
    expected <- sub("^#> ?", "", block[startsWith(block, "#>")])
    code <- block[!startsWith(block, "#>")]
    printed <- capture.output(
      for (e in parse(text = code)) {
        v <- withVisible(eval(e, env))
        if (v$visible) print(v$value)
      }
    )
    # print() pads some vectors with spaces; the page has none at line ends.
    expect_identical(sub(" +$", "", printed), expected, label = paste(code, collapse = "\n"))
  }
})
