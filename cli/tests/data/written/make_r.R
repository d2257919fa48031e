# Writes the R fixtures of cli/tests: `Rscript make_r.R` in this directory.
# Each file is what R's write.csv writes by default (quoted header, quoted row names "1".."n"),
# or with row.names = FALSE.
y_true <- matrix(c(1, 0, 0, 1,  0, 1, 0, 0,  1, 1, 0, 0,  0, 0, 1, 0,  0, 1, 1, 1,  1, 0, 0, 0),
                 nrow = 6, byrow = TRUE)
y_score <- matrix(c(0.75, 0.25, 0, 0.75,  0.5, 0.5, 0.25, 0,  0.5, 0.75, 0, 0.5,
                    0.25, 0, 0.5, 0.5,  0, 0.5, 0.25, 0.75,  1, 0, 0.25, 0.25),
                  nrow = 6, byrow = TRUE)
# A matrix without names: write.csv names the columns V1..V4.
write.csv(y_true, "r_y_true.csv")
write.csv(y_score, "r_y_score.csv")
write.csv(y_true, "r_y_true_norownames.csv", row.names = FALSE)
# Named columns and rows taken from a larger table (row names no longer 1..n).
named <- y_score
colnames(named) <- c("a", "b", "c", "d")
rownames(named) <- c("s3", "s7", "s8", "s10", "s11", "s12")
write.csv(named, "r_y_score_named_rows.csv")
# write.table's default: space-separated, quoted header of the columns only, quoted row names.
write.table(y_true, "r_table_y_true.txt")
write.table(y_score, "r_table_y_score.txt")
