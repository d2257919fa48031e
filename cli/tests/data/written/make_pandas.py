"""Writes the pandas fixtures of cli/tests: `python3 make_pandas.py` in this directory.

Each file is what pandas writes with the defaults researchers use (`df.to_csv(path)`), or with
the option that drops the index (`index=False`).
"""
import numpy as np
import pandas as pd

y_true = np.array(
    [[1, 0, 0, 1], [0, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 1, 1, 1], [1, 0, 0, 0]]
)
y_score = np.array(
    [
        [0.75, 0.25, 0.0, 0.75],
        [0.5, 0.5, 0.25, 0.0],
        [0.5, 0.75, 0.0, 0.5],
        [0.25, 0.0, 0.5, 0.5],
        [0.0, 0.5, 0.25, 0.75],
        [1.0, 0.0, 0.25, 0.25],
    ]
)
names = ["a", "b", "c", "d"]

# The default: the row index (0..n-1) as a first column under an empty header name.
pd.DataFrame(y_true, columns=names).to_csv("pandas_y_true.csv")
pd.DataFrame(y_score, columns=names).to_csv("pandas_y_score.csv")
# A frame made from an array: its column names are 0..n-1 too.
pd.DataFrame(y_score).to_csv("pandas_y_score_unnamed.csv")
# Without the index.
pd.DataFrame(y_true, columns=names).to_csv("pandas_y_true_noindex.csv", index=False)
# Rows shuffled (as after a split): the index no longer counts 0..n-1.
pd.DataFrame(y_score, columns=names).iloc[[3, 0, 5, 1, 4, 2]].to_csv("pandas_y_score_shuffled.csv")
# The same scores with the columns in another order.
pd.DataFrame(y_score, columns=names)[["d", "c", "b", "a"]].to_csv("pandas_y_score_dcba.csv")
# Sample weights from a Series: the index, then the values under the name 0.
pd.Series([1.0, 2.0, 1.0, 0.5, 1.0, 3.0]).to_csv("pandas_weights.csv")
# Space-separated with the index: the header's first name is empty, which a whitespace split
# drops, so the header is one name short of the rows.
pd.DataFrame(y_true, columns=names).to_csv("pandas_space_y_true.txt", sep=" ")
pd.DataFrame(y_score, columns=names).to_csv("pandas_space_y_score.txt", sep=" ")
# Frames made from arrays, saved without the index: the header is the column names 0..n-1
# alone (`0,1,2,3`), all integers, which a reader could take for a sample.
pd.DataFrame(y_true).to_csv("pandas_y_true_array_noindex.csv", index=False)
pd.DataFrame(y_score).to_csv("pandas_y_score_array_noindex.csv", index=False)
