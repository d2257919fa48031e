library(testthat)
library(rankmetrics)

test_check("rankmetrics")
